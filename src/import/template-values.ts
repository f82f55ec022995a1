import type { Business } from '../domain/business.js';
import type { ImportProblem } from './validate-records.js';

/**
 * `review-data init` fills business.json with the demo business's values as examples. An import of a
 * business that still holds the demo's contact details would publish another business's phone number
 * and address as this one's: each such field is named in a warning (the import goes on: the owner may
 * only be trying things out).
 */
export function templateWarnings(business: Business, template: Business): ImportProblem[] {
  const same: string[] = [];
  const eq = (a: unknown, b: unknown) => a !== null && a !== undefined && a !== '' && JSON.stringify(a) === JSON.stringify(b);
  if (eq(business.id, template.id)) same.push(`id "${business.id}"`);
  if (eq(business.name, template.name)) same.push(`name "${business.name}"`);
  if (eq(business.telephone, template.telephone)) same.push(`telephone "${business.telephone}"`);
  if (eq(business.email, template.email)) same.push(`email "${business.email}"`);
  if (eq(business.url, template.url)) same.push(`url "${business.url}"`);
  if (business.address && template.address && eq(business.address.street, template.address.street))
    same.push(`address "${business.address.street}"`);
  if (eq(business.geo, template.geo)) same.push('geo');
  if (same.length === 0) return [];
  return [
    {
      file: 'business',
      record: 0,
      path: 'business',
      message: `business still holds the example values that 'review-data init' wrote (the demo business's): ${same.join(', ')}; edit them to your own before you publish`,
    },
  ];
}
