/**
 * The most specific schema.org type a business's categories allow (contract §7): each category is
 * matched against the LocalBusiness subtypes below, in the business's own category order; several
 * distinct matches give several types (schema.org allows a node to have more than one), none gives
 * LocalBusiness.
 */
const TYPE_RULES: readonly [RegExp, string][] = [
  [/\b(hvac|heating|cooling|air[- ]condition\w*|furnace|heat pump)\b/i, 'HVACBusiness'],
  [/\b(plumb\w*|water heater|drain|sewer)\b/i, 'Plumber'],
  [/\belectric(ian|al)?\b/i, 'Electrician'],
  [/\broof\w*\b/i, 'RoofingContractor'],
  [/\block ?smith\b/i, 'Locksmith'],
  [/\b(house )?paint(er|ing)\b/i, 'HousePainter'],
  [/\b(moving|movers?)\b/i, 'MovingCompany'],
  [/\bgeneral contractor\b/i, 'GeneralContractor'],
  [/\b(auto|car) (repair|mechanic)\b/i, 'AutoRepair'],
  [/\bdentist\b/i, 'Dentist'],
  [/\b(restaurant|bistro|diner|pizzeria)\b/i, 'Restaurant'],
  [/\b(hair salon|barber)\b/i, 'HairSalon'],
  [/\b(beauty salon|nail salon)\b/i, 'BeautySalon'],
  [/\b(attorney|lawyer|law firm)\b/i, 'Attorney'],
  [/\b(real estate)\b/i, 'RealEstateAgent'],
];

export function schemaOrgTypes(categories: readonly string[]): string[] {
  const types: string[] = [];
  for (const category of categories) {
    for (const [pattern, type] of TYPE_RULES) {
      if (pattern.test(category) && !types.includes(type)) types.push(type);
    }
  }
  return types.length > 0 ? types : ['LocalBusiness'];
}
