import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { ServiceUrls } from '../domain/urls.js';
import { PACKAGE_ROOT } from '../package-root.js';
import { createRepresentation, type Representation } from '../snapshot/rendered-document.js';

/**
 * Static files of the public face, served from this origin (contract §7: no CDN): the stylesheet,
 * the icon, the widget (public/ in the package) and swagger-ui's bundle (the swagger-ui-dist package).
 * Read once per app (createSiteAssets); their bytes do not depend on the data, so they are not per snapshot.
 */
const PUBLIC_DIR = path.join(PACKAGE_ROOT, 'public');
const SWAGGER_DIR = path.dirname(createRequire(path.join(PACKAGE_ROOT, 'package.json')).resolve('swagger-ui-dist/package.json'));

export const JS_MEDIA_TYPE = 'text/javascript; charset=utf-8';
const CSS_MEDIA_TYPE = 'text/css; charset=utf-8';

interface AssetSource {
  file: string;
  contentType: string;
}

const SITE_ASSETS: Record<string, AssetSource> = {
  '/assets/site.css': { file: path.join(PUBLIC_DIR, 'site.css'), contentType: CSS_MEDIA_TYPE },
  '/favicon.svg': { file: path.join(PUBLIC_DIR, 'favicon.svg'), contentType: 'image/svg+xml' },
  '/docs/assets/init.js': { file: path.join(PUBLIC_DIR, 'docs-init.js'), contentType: JS_MEDIA_TYPE },
  '/docs/assets/swagger-ui.css': { file: path.join(SWAGGER_DIR, 'swagger-ui.css'), contentType: CSS_MEDIA_TYPE },
  '/docs/assets/swagger-ui-bundle.js': { file: path.join(SWAGGER_DIR, 'swagger-ui-bundle.js'), contentType: JS_MEDIA_TYPE },
};

/** The paths under which static assets are served. */
export const ASSET_PATHS = Object.keys(SITE_ASSETS);

function read(source: AssetSource, transform?: (text: string) => string): Representation {
  const bytes = fs.readFileSync(source.file);
  const body = transform ? transform(bytes.toString('utf8')) : bytes;
  return createRepresentation(body, source.contentType, fs.statSync(source.file).mtimeMs);
}

/** widget.js with the service's base URL written in, so it needs no configuration on the host page. */
const WIDGET_SOURCE: AssetSource = { file: path.join(PUBLIC_DIR, 'widget.js'), contentType: JS_MEDIA_TYPE };

export interface SiteAssets {
  /** The asset served at `urlPath` (one of ASSET_PATHS), read on first use. */
  asset(urlPath: string): Representation | undefined;
  /** widget.js for this service's base URL, read on first use. */
  widget(): Representation;
}

/** The static files of one app (its base URL is written into the widget), each read once when first asked for. */
export function createSiteAssets(urls: ServiceUrls): SiteAssets {
  const loaded = new Map<string, Representation>();
  let widget: Representation | undefined;
  return {
    asset(urlPath) {
      const source = SITE_ASSETS[urlPath];
      if (!source) return undefined;
      let rep = loaded.get(urlPath);
      if (!rep) loaded.set(urlPath, (rep = read(source)));
      return rep;
    },
    widget: () => (widget ??= read(WIDGET_SOURCE, (text) => text.replace("'__REVIEW_DATA_BASE__'", JSON.stringify(urls.base)))),
  };
}
