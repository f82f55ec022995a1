import type { Business } from '../../src/domain/business.js';
import type { Trade } from './service-stories.js';

/**
 * The demo business: a fictional HVAC and plumbing company. Every URL is on example.com and every
 * phone number is a 555 number. Technician aliases are nicknames that never occur as ordinary words
 * in the review templates (catalog matching is case-insensitive and whole-word, contract §2).
 */
export const DEMO_BUSINESS: Business = {
  id: 'summit-ridge',
  name: 'Summit Ridge Heating, Cooling & Plumbing',
  description:
    'Family-owned heating, cooling and plumbing company serving Larkspur Valley and the surrounding ' +
    'foothill towns since 2009. Licensed technicians for furnace and AC repair, heat pump installs, ' +
    'water heaters, drains and sewer lines, with upfront flat-rate pricing and same-day service.',
  url: 'https://summitridgehome.example.com/',
  telephone: '+1-303-555-0142',
  email: 'service@summitridgehome.example.com',
  address: {
    street: '4180 Foothill Commerce Dr, Suite B',
    locality: 'Larkspur Valley',
    region: 'CO',
    postal_code: '80498',
    country: 'US',
  },
  geo: { latitude: 39.6217, longitude: -105.1093 },
  categories: ['HVAC contractor', 'Plumber', 'Air conditioning repair service', 'Water heater installation'],
  opening_hours: ['Mo-Fr 07:00-19:00', 'Sa 08:00-14:00'],
  services: [
    {
      id: 'ac-repair',
      name: 'AC Repair',
      description: 'Diagnosis and repair of central air conditioners: capacitors, refrigerant leaks, fan motors.',
      aliases: ['AC', 'A/C', 'air conditioner', 'air conditioning', 'AC unit'],
    },
    {
      id: 'furnace-repair',
      name: 'Furnace Repair',
      description: 'Gas and electric furnace repair: igniters, flame sensors, blowers, control boards.',
      aliases: ['furnace', 'gas furnace', 'furnace repair'],
    },
    {
      id: 'heat-pump-installation',
      name: 'Heat Pump Installation',
      description: 'Sizing and installing ducted heat pumps and ductless mini-split systems.',
      aliases: ['heat pump', 'mini split', 'mini-split', 'ductless'],
    },
    {
      id: 'water-heater',
      name: 'Water Heater Repair & Replacement',
      description: 'Tank and tankless water heaters: repair, flushing, same-day replacement.',
      aliases: ['water heater', 'hot water heater', 'tankless', 'no hot water'],
    },
    {
      id: 'drain-cleaning',
      name: 'Drain Cleaning',
      description: 'Clearing clogged kitchen, bathroom and main drains by snaking or hydro-jetting.',
      aliases: ['drain', 'clogged drain', 'clog', 'hydro-jetting', 'hydro jetting'],
    },
    {
      id: 'sewer-line',
      name: 'Sewer Line Repair',
      description: 'Sewer camera inspections, root removal, spot repairs and trenchless line replacement.',
      aliases: ['sewer line', 'sewer', 'camera inspection', 'trenchless'],
    },
    {
      id: 'leak-detection',
      name: 'Leak Detection',
      description: 'Finding hidden water leaks in slabs, walls and ceilings with acoustic and thermal tools.',
      aliases: ['leak detection', 'slab leak', 'hidden leak', 'water leak'],
    },
    {
      id: 'duct-cleaning',
      name: 'Duct Cleaning',
      description: 'Cleaning and sealing supply and return ductwork.',
      aliases: ['duct cleaning', 'ducts', 'air ducts', 'ductwork'],
    },
    {
      id: 'thermostat',
      name: 'Thermostat Installation',
      description: 'Installing and wiring programmable and smart thermostats.',
      aliases: ['thermostat', 'smart thermostat', 'Nest', 'Ecobee'],
    },
    {
      id: 'garbage-disposal',
      name: 'Garbage Disposal Repair',
      description: 'Unjamming, repairing and replacing kitchen garbage disposals.',
      aliases: ['garbage disposal', 'disposal', 'InSinkErator'],
    },
    {
      id: 'fixture-repair',
      name: 'Toilet & Fixture Repair',
      description: 'Running toilets, dripping faucets, shower valves and fixture installs.',
      aliases: ['toilet', 'faucet', 'running toilet', 'shower valve'],
    },
    {
      id: 'maintenance-plan',
      name: 'Comfort Club Maintenance Plan',
      description: 'Twice-yearly furnace and AC tune-ups with priority scheduling and no overtime fees.',
      aliases: ['Comfort Club', 'maintenance plan', 'tune-up', 'tune up', 'annual maintenance'],
    },
  ],
  technicians: [
    { id: 'mike-r', name: 'Michael Rodriguez', role: 'Lead HVAC Technician', aliases: ['Michael', 'Mike', 'Mikey'] },
    { id: 'renee-d', name: 'Renée Dubois', role: 'Master Plumber', aliases: ['Renée', 'Renee'] },
    { id: 'darnell-w', name: 'Darnell Washington', role: 'HVAC Technician', aliases: ['Darnell', 'DW'] },
    { id: 'tom-k', name: 'Tomasz Kowalski', role: 'Plumbing Technician', aliases: ['Tomasz', 'Tom', 'Tommy'] },
    { id: 'priya-n', name: 'Priya Natarajan', role: 'HVAC Service Technician', aliases: ['Priya'] },
    { id: 'javi-m', name: 'Javier Morales', role: 'Drain and Sewer Specialist', aliases: ['Javier', 'Javi'] },
    { id: 'kevin-ob', name: "Kevin O'Brien", role: 'HVAC Installer', aliases: ['Kevin', 'Kev'] },
    { id: 'sam-l', name: 'Samantha Lee', role: 'Service Coordinator', aliases: ['Samantha', 'Sam', 'Sammy'] },
  ],
  service_areas: [
    { id: 'larkspur-valley', name: 'Larkspur Valley', aliases: [] },
    { id: 'old-town', name: 'Old Town Larkspur', aliases: ['Old Town'] },
    { id: 'pine-hollow', name: 'Pine Hollow', aliases: ['Pine Hollow Estates'] },
    { id: 'cedar-crest', name: 'Cedar Crest', aliases: [] },
    { id: 'millbrook', name: 'Millbrook', aliases: ['Mill Brook'] },
    { id: 'eastgate', name: 'Eastgate', aliases: [] },
    { id: 'willow-creek', name: 'Willow Creek', aliases: [] },
    { id: 'fox-run', name: 'Fox Run', aliases: ['Foxrun'] },
    { id: 'silver-lake', name: 'Silver Lake', aliases: [] },
    { id: 'highland-park', name: 'Highland Park', aliases: ['the Highlands'] },
  ],
  same_as: [
    'https://www.facebook.example.com/summitridgehome',
    'https://www.yelp.example.com/biz/summit-ridge-heating-cooling-plumbing-larkspur-valley',
    'https://maps.google.example.com/?cid=5550142',
    'https://www.bbb.example.com/us/co/larkspur-valley/profile/hvac/summit-ridge',
  ],
  taxonomy: 'home-services',
};

/** Who does which work: plumbers are sent to plumbing jobs; the coordinator is met on the phone. */
export const TECHNICIAN_TRADES: Record<string, Trade | 'office'> = {
  'mike-r': 'hvac',
  'renee-d': 'plumbing',
  'darnell-w': 'hvac',
  'tom-k': 'plumbing',
  'priya-n': 'hvac',
  'javi-m': 'plumbing',
  'kevin-ob': 'hvac',
  'sam-l': 'office',
};
