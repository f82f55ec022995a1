import { TaxonomySchema, type Taxonomy } from '../taxonomy.js';
import { homeServicesTaxonomy } from './home-services.js';
import { restaurantsTaxonomy } from './restaurants.js';

export const DEFAULT_TAXONOMY_ID = 'home-services';

/** The taxonomies the project ships (insights.md "Taxonomies"). */
export const builtinTaxonomies: readonly Taxonomy[] = [homeServicesTaxonomy, restaurantsTaxonomy].map((t) => TaxonomySchema.parse(t));
