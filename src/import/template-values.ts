import type { Business } from '../domain/business.js';
import type { ImportProblem } from './validate-records.js';

/** A field of the imported business that still holds the value `init` wrote, and how to show that value. */
interface ExampleValue {
  path: string;
  shown: string;
}

const same = (a: unknown, b: unknown) => a !== null && a !== undefined && a !== '' && JSON.stringify(a) === JSON.stringify(b);
const quoted = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v.length > 60 ? `${v.slice(0, 57)}...` : v) : JSON.stringify(v));

/**
 * Every field of `business` that still holds the example value `review-data init` wrote (the demo
 * business's, contract §3.1). Region and country are real places another business shares, so only the
 * invented parts of the address count; a catalog entry or link counts when it is one of the demo's as
 * written, a list of categories or hours when it is the demo's whole list.
 */
export function exampleValues(business: Business, template: Business): ExampleValue[] {
  const found: ExampleValue[] = [];
  for (const key of ['id', 'name', 'description', 'url', 'telephone', 'email'] as const)
    if (same(business[key], template[key])) found.push({ path: key, shown: quoted(business[key]) });
  for (const key of ['street', 'locality', 'postal_code'] as const)
    if (same(business.address?.[key], template.address?.[key]))
      found.push({ path: `address.${key}`, shown: quoted(business.address?.[key]) });
  if (same(business.geo, template.geo)) found.push({ path: 'geo', shown: quoted(business.geo) });
  for (const key of ['categories', 'opening_hours'] as const)
    if (business[key].length > 0 && same(business[key], template[key])) found.push({ path: key, shown: quoted(business[key]) });
  for (const key of ['services', 'technicians', 'service_areas'] as const) {
    const examples = new Set(template[key].map((e) => JSON.stringify(e)));
    business[key].forEach((e, i) => {
      if (examples.has(JSON.stringify(e))) found.push({ path: `${key}.${i}`, shown: quoted(e.name) });
    });
  }
  const links = new Set(template.same_as);
  business.same_as.forEach((url, i) => {
    if (links.has(url)) found.push({ path: `same_as.${i}`, shown: quoted(url) });
  });
  return found;
}

/**
 * An import of a business that still holds the example values would publish another business's phone
 * number and address as this one's: each such field is a problem, and a last one says what to do,
 * unless the owner says they mean it (`--allow-example-values`: trying the steps out), when one note
 * names the fields instead.
 */
export function templateProblems(business: Business, template: Business, file: string, allowed: boolean): ImportProblem[] {
  const found = exampleValues(business, template);
  if (found.length === 0) return [];
  const at = { file, record: 0 };
  if (allowed)
    return [
      {
        ...at,
        path: 'business',
        message: `business fields ${found.map((f) => f.path).join(', ')} hold the example values 'review-data init' wrote; published as they are (--allow-example-values)`,
      },
    ];
  return [
    ...found.map(({ path, shown }) => ({
      ...at,
      path: `business.${path}`,
      message: `business.${path} is still the example value ${shown}`,
    })),
    {
      ...at,
      path: 'business',
      message: `business: ${found.length} field(s) still hold the example values 'review-data init' wrote (the demo business's): write your own, or pass --allow-example-values to publish them as they are`,
    },
  ];
}
