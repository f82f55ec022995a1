/**
 * How customers describe each service: `openers` name the service in the words people actually use
 * (each one contains a name or alias from the catalog, so it is found as a mention), and `it` is how a
 * later sentence refers back to the thing that was fixed.
 */
export interface ServiceStory {
  trade: Trade;
  /** Months the openers make sense in: `warm` stories are not told in winter, `cold` ones not in summer. */
  season?: 'warm' | 'cold';
  it: string;
  openers: readonly string[];
}

export type Trade = 'hvac' | 'plumbing';

/** Whether a service's story fits a review written in `month` (1..12). */
export function inSeason(story: ServiceStory, month: number): boolean {
  if (story.season === 'warm') return month >= 4 && month <= 10;
  if (story.season === 'cold') return month >= 10 || month <= 4;
  return true;
}

export const SERVICE_STORIES: Record<string, ServiceStory> = {
  'ac-repair': {
    trade: 'hvac',
    season: 'warm',
    it: 'the AC',
    openers: [
      'Our AC quit on the hottest weekend of the year.',
      'The air conditioner was running nonstop but blowing warm air.',
      'Called about our A/C making a loud buzzing noise outside.',
      'Our upstairs was 85 degrees because the AC unit froze up.',
      'Needed AC repair in the middle of a heat wave.',
      'The air conditioning stopped working the day before we had family in town.',
    ],
  },
  'furnace-repair': {
    trade: 'hvac',
    season: 'cold',
    it: 'the furnace',
    openers: [
      'Our furnace stopped working on a 10-degree night.',
      'The furnace kept turning on and shutting off every few minutes.',
      'Woke up to a cold house and a gas furnace that would not light.',
      'Booked a furnace repair after hearing a banging noise every time the heat came on.',
      'The furnace was blowing cold air and the igniter was clicking.',
    ],
  },
  'heat-pump-installation': {
    trade: 'hvac',
    it: 'the new heat pump',
    openers: [
      'We had a heat pump installed to replace our 25-year-old system.',
      'Had them put in a ductless mini split for the bonus room over the garage.',
      'Got three quotes for a new heat pump and went with these folks.',
      'We added a mini-split to the sunroom, which was always freezing or boiling.',
      'Swapped our tired 1990s system for a heat pump this year.',
    ],
  },
  'water-heater': {
    trade: 'plumbing',
    it: 'the water heater',
    openers: [
      'Our water heater started leaking all over the basement floor.',
      'No hot water on a Sunday morning with a house full of guests.',
      'We had our old tank replaced with a tankless unit.',
      'The hot water heater was making popping sounds and running out after one shower.',
      'Needed a new water heater after ours finally gave up at 14 years old.',
      'The pilot on our water heater kept going out.',
    ],
  },
  'drain-cleaning': {
    trade: 'plumbing',
    it: 'the drain',
    openers: [
      'Our kitchen sink drain was completely backed up the night before a family party.',
      'Had a stubborn clog in the upstairs shower that no store-bought stuff would touch.',
      'Called about a clogged drain in the laundry room.',
      'The basement floor drain was backing up every time the washer ran.',
      'They did hydro-jetting on our main drain after years of slow drains.',
    ],
  },
  'sewer-line': {
    trade: 'plumbing',
    it: 'the sewer line',
    openers: [
      "Sewage from the sewer was backing up into the basement, which is every homeowner's nightmare.",
      'We needed a camera inspection of the sewer line before closing on the house.',
      'Tree roots had broken into our sewer line.',
      'They replaced a collapsed section of our sewer line with a trenchless repair.',
      'Had a sewer backup two days after moving in.',
    ],
  },
  'leak-detection': {
    trade: 'plumbing',
    it: 'the pipe',
    openers: [
      'Our water bill doubled and we suspected a hidden leak.',
      'We could hear water running under the floor with every tap off, and it turned out to be a slab leak.',
      'There was a water leak somewhere behind the bathroom wall staining the ceiling below.',
      'Called them for leak detection after the meter kept spinning with nothing on.',
    ],
  },
  'duct-cleaning': {
    trade: 'hvac',
    it: 'the ductwork',
    openers: [
      'Had our air ducts cleaned after a kitchen remodel left dust everywhere.',
      'Booked duct cleaning because allergy season was miserable in our house.',
      'The ducts in our 1970s house had never been cleaned.',
      'They cleaned and sealed the ductwork in the attic.',
    ],
  },
  thermostat: {
    trade: 'hvac',
    it: 'the thermostat',
    openers: [
      'Had a smart thermostat installed in the hallway.',
      'Our old thermostat died and the house would not heat at all.',
      'Bought an Ecobee and needed help because our old wiring had no common wire.',
      'Had them swap our ancient dial thermostat for a Nest.',
    ],
  },
  'garbage-disposal': {
    trade: 'plumbing',
    it: 'the disposal',
    openers: [
      'Our garbage disposal jammed and started humming without spinning.',
      'The disposal was leaking under the kitchen sink.',
      'Needed a new InSinkErator after the old one finally died.',
      'Had the garbage disposal replaced the same afternoon it broke.',
    ],
  },
  'fixture-repair': {
    trade: 'plumbing',
    it: 'everything',
    openers: [
      'Our upstairs toilet kept running all night.',
      'Had a dripping kitchen faucet replaced and a running toilet fixed in one visit.',
      'The shower valve was stuck and we could not get the water temperature right.',
      'The toilet in the guest bath was rocking and leaking at the base.',
      'Needed a new bathroom faucet installed after the handle snapped off.',
    ],
  },
  'maintenance-plan': {
    trade: 'hvac',
    it: 'the system',
    openers: [
      'We have been on their Comfort Club plan for a few years now.',
      'Had our seasonal tune-up done today as part of the maintenance plan.',
      'Scheduled the fall tune-up through our maintenance plan.',
      'Signed up for the Comfort Club after our first repair with them.',
      'Booked an annual maintenance visit for the whole system.',
    ],
  },
};
