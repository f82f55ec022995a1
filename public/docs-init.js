/* /docs: starts swagger-ui on the OpenAPI document named by this script's data-openapi attribute. */
/* global SwaggerUIBundle, document */
(function () {
  var script = document.currentScript;
  SwaggerUIBundle({
    url: script.getAttribute('data-openapi'),
    dom_id: '#swagger-ui',
    deepLinking: true,
    // No calls to the public validator service: the page talks to this origin only.
    validatorUrl: null,
    tryItOutEnabled: true,
  });
})();
