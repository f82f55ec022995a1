import type { Business } from '../domain/business.js';
import type { ImportProblem } from './validate-records.js';

/** A field of the imported business that still holds the value `init` wrote, and how to show that value. */
interface ExampleValue {
  path: string;
  shown: string;
  /** The field without its index, and the value as JSON: what tells one finding from another. */
  key: string;
}

/**
 * The fields that say which business this is: publishing another business's name, phone number, street
 * or links under this one's is what must not happen by accident. The rest (a description, the town, the
 * map position, categories, hours, catalog entries) is often the same for a real business of the same
 * trade and place, so holding the example's value is only noted.
 */
const IDENTIFYING = new Set(['id', 'name', 'url', 'telephone', 'email', 'address.street', 'address.postal_code', 'same_as']);

const same = (a: unknown, b: unknown) => a !== null && a !== undefined && a !== '' && JSON.stringify(a) === JSON.stringify(b);
const quoted = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v.length > 60 ? `${v.slice(0, 57)}...` : v) : JSON.stringify(v));
const finding = (path: string, field: string, value: unknown): ExampleValue => ({
  path,
  shown: quoted(value),
  key: `${field}=${JSON.stringify(value)}`,
});
const fieldOf = (f: ExampleValue) => f.key.slice(0, f.key.indexOf('='));

/**
 * Every field of `business` that still holds the example value `review-data init` wrote (the demo
 * business's, contract §3.1). Region and country are real places another business shares, so only the
 * invented parts of the address count; a catalog entry or link counts when it is one of the demo's as
 * written, a list of categories or hours when it is the demo's whole list.
 */
export function exampleValues(business: Business, template: Business): ExampleValue[] {
  const found: ExampleValue[] = [];
  for (const key of ['id', 'name', 'description', 'url', 'telephone', 'email'] as const)
    if (same(business[key], template[key])) found.push(finding(key, key, business[key]));
  for (const key of ['street', 'locality', 'postal_code'] as const)
    if (same(business.address?.[key], template.address?.[key]))
      found.push(finding(`address.${key}`, `address.${key}`, business.address?.[key]));
  if (same(business.geo, template.geo)) found.push(finding('geo', 'geo', business.geo));
  for (const key of ['categories', 'opening_hours'] as const)
    if (business[key].length > 0 && same(business[key], template[key])) found.push(finding(key, key, business[key]));
  for (const key of ['services', 'technicians', 'service_areas'] as const) {
    const examples = new Set(template[key].map((e) => JSON.stringify(e)));
    business[key].forEach((e, i) => {
      if (examples.has(JSON.stringify(e))) found.push({ ...finding(`${key}.${i}`, key, e), shown: quoted(e.name) });
    });
  }
  const links = new Set(template.same_as);
  business.same_as.forEach((url, i) => {
    if (links.has(url)) found.push(finding(`same_as.${i}`, 'same_as', url));
  });
  return found;
}

/**
 * An import of a business that still holds the example values would publish another business's phone
 * number and address as this one's: each identifying field that does is a problem, and a last one says
 * what to do, unless the owner says they mean it (`--allow-example-values`: trying the steps out). The
 * other fields, and every field when allowed, are one note. A value the stored business already holds
 * was published on purpose before (an export imported back, contract §3: a no-op), so it is not
 * reported again.
 */
export function templateProblems(
  business: Business,
  template: Business,
  stored: Business | null,
  file: string,
  allowed: boolean,
): { problems: ImportProblem[]; notes: ImportProblem[] } {
  const published = new Set(stored ? exampleValues(stored, template).map((f) => f.key) : []);
  const all = exampleValues(business, template).filter((f) => !published.has(f.key));
  const found = allowed ? [] : all.filter((f) => IDENTIFYING.has(fieldOf(f)));
  const noted = allowed ? all : all.filter((f) => !IDENTIFYING.has(fieldOf(f)));
  const at = { file, record: 0 };
  const notes: ImportProblem[] = noted.length
    ? [
        {
          ...at,
          path: 'business',
          message: `business fields ${noted.map((f) => f.path).join(', ')} hold the example values 'review-data init' wrote; published as they are${allowed ? ' (--allow-example-values)' : ''}`,
        },
      ]
    : [];
  if (found.length === 0) return { problems: [], notes };
  const problems: ImportProblem[] = [
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
  return { problems, notes };
}
