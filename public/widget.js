/*
 * <review-data-widget>: the business's verified reviews on any website.
 *
 *   <script src="https://reviews.example.com/widget.js" async></script>
 *   <review-data-widget limit="3"></review-data-widget>
 *
 * Shows the average rating, the review count and the newest reviews (limit 1-10, default 3), and says
 * how many of how many it shows. There is deliberately no option to leave reviews out by their rating
 * (FTC rule on consumer reviews, 16 CFR 465.7, 2024). Everything lives in a shadow root, so the host's
 * CSS cannot break it; theme it from outside with CSS custom properties:
 *   review-data-widget { --rdw-accent: #7c2d12; --rdw-font: Georgia, serif; --rdw-radius: 0; }
 * Text goes into the DOM as text nodes only; no dependency, no other origin than the service's.
 */
/* global HTMLElement, customElements, document, fetch, CSSStyleSheet */
(function () {
  'use strict';
  var BASE = '__REVIEW_DATA_BASE__';
  var TAG = 'review-data-widget';
  if (typeof customElements === 'undefined' || customElements.get(TAG)) return;
  var SVG = 'http://www.w3.org/2000/svg';
  var STAR = 'M12 2l3.1 6.6 7.2.8-5.4 4.9 1.5 7.1L12 17.8 5.6 21.4 7.1 14.3 1.7 9.4l7.2-.8z';
  var MAX_TEXT = 280;
  var CSS =
    ':host{display:block;max-width:640px;font-family:var(--rdw-font,system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif);' +
    'color:var(--rdw-text,#1c2430);font-size:var(--rdw-font-size,15px);line-height:1.5}' +
    '.box{background:var(--rdw-bg,#fff);border:1px solid var(--rdw-border,#dfe3e8);border-radius:var(--rdw-radius,10px);padding:16px 18px}' +
    'a{color:var(--rdw-accent,#0b5c6b)}' +
    '.head{display:flex;flex-wrap:wrap;align-items:center;gap:4px 12px;margin:0 0 4px}' +
    '.name{font-weight:700;font-size:1.1em;text-decoration:none}' +
    '.value{font-size:1.8em;font-weight:700;line-height:1}' +
    '.on{fill:var(--rdw-star,#b45309)}.off{fill:var(--rdw-star-off,#d5d9df)}' +
    '.count,.meta{color:var(--rdw-muted,#4b5563);font-size:.9em;margin:0}' +
    'ul{list-style:none;margin:12px 0 0;padding:0}' +
    'li{border-top:1px solid var(--rdw-border,#dfe3e8);padding:10px 0}' +
    '.title{font-weight:600;margin:0}' +
    '.text{margin:4px 0 0;white-space:pre-line;overflow-wrap:anywhere}' +
    '.all{display:inline-block;margin-top:8px;font-weight:600}';

  function el(name, attrs, children) {
    var node = document.createElement(name);
    Object.keys(attrs || {}).forEach(function (k) {
      node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) {
      node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    });
    return node;
  }

  function stars(rating, label) {
    var svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('viewBox', '0 0 120 24');
    svg.setAttribute('width', '90');
    svg.setAttribute('height', '18');
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', label);
    for (var i = 0; i < 5; i++) {
      var p = document.createElementNS(SVG, 'path');
      p.setAttribute('d', STAR);
      p.setAttribute('transform', 'translate(' + i * 24 + ' 0)');
      p.setAttribute('class', i < Math.round(rating) ? 'on' : 'off');
      svg.appendChild(p);
    }
    return svg;
  }

  function shorten(text) {
    return text.length <= MAX_TEXT
      ? text
      : text
          .slice(0, MAX_TEXT)
          .replace(/\s+\S*$/, '')
          .replace(/[\s.,;:!?]+$/, '') + '…';
  }

  function formatDate(day) {
    var d = new Date(day + 'T00:00:00Z');
    return isNaN(d) ? day : d.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
  }

  function getJson(url) {
    return fetch(url, { headers: { Accept: 'application/json' }, credentials: 'omit' }).then(function (r) {
      if (!r.ok) throw new Error('HTTP ' + r.status + ' from ' + url);
      return r.json();
    });
  }

  function limitOf(node) {
    var n = parseInt(node.getAttribute('limit') || '3', 10);
    return n >= 1 && n <= 10 ? n : 3;
  }

  class ReviewDataWidget extends HTMLElement {
    static get observedAttributes() {
      return ['limit'];
    }

    connectedCallback() {
      if (!this.shadowRoot) {
        var root = this.attachShadow({ mode: 'open' });
        // A constructed stylesheet is not an inline style, so a host page's CSP does not block it.
        if (root.adoptedStyleSheets !== undefined && typeof CSSStyleSheet === 'function') {
          var sheet = new CSSStyleSheet();
          sheet.replaceSync(CSS);
          root.adoptedStyleSheets = [sheet];
        } else root.appendChild(el('style', {}, [CSS]));
        this.box = root.appendChild(el('div', { class: 'box' }, [el('p', { class: 'count' }, ['Loading reviews…'])]));
      }
      this.load();
    }

    attributeChangedCallback() {
      if (this.box) this.load();
    }

    load() {
      var limit = limitOf(this);
      var ticket = (this.ticket = (this.ticket || 0) + 1);
      Promise.all([getJson(BASE + '/'), getJson(BASE + '/api/reviews/search?limit=' + limit)])
        .then((answers) => {
          if (ticket === this.ticket) this.show(answers[0], answers[1].reviews);
        })
        .catch(() => {
          if (ticket === this.ticket) this.box.replaceChildren(el('a', { href: BASE + '/' }, ['Read our customer reviews']));
        });
    }

    show(index, reviews) {
      var agg = index.aggregate_rating;
      var home = BASE + '/';
      var value = agg.rating_value.toFixed(2).replace(/0$/, '');
      var items = reviews.map(function (r) {
        var title = r.title && r.title.trim() ? r.title : r.rating + '-star review';
        var text = r.text.trim() ? shorten(r.text) : 'Rated ' + r.rating + ' out of 5, without a written review.';
        return el('li', {}, [
          el('p', { class: 'title' }, [el('a', { href: BASE + '/reviews/' + encodeURIComponent(r.id) }, [title])]),
          el('p', { class: 'meta' }, [stars(r.rating, r.rating + ' out of 5 stars'), ' ' + r.author.name + ' · ' + formatDate(r.date)]),
          el('p', { class: 'text' }, [text]),
        ]);
      });
      this.box.replaceChildren(
        el('p', { class: 'head' }, [
          el('a', { class: 'name', href: home }, [index.name]),
          el('span', { class: 'value' }, [value]),
          stars(agg.rating_value, 'Average rating ' + value + ' out of 5'),
        ]),
        el('p', { class: 'count' }, [
          'Showing ' + reviews.length + ' of ' + agg.review_count.toLocaleString('en-US') + ' verified reviews, newest first',
        ]),
        el('ul', {}, items),
        el('a', { class: 'all', href: home }, ['Read all reviews']),
      );
    }
  }

  customElements.define(TAG, ReviewDataWidget);
})();
