/** A small dataset for the scale-out tests: import-file shapes (contract §3), built in code. */

export function businessDoc() {
  return {
    id: 'northwind',
    name: 'Northwind Plumbing',
    url: 'https://northwind.example.com/',
    services: [{ id: 'drains', name: 'Drain cleaning', aliases: ['drain'] }],
    technicians: [{ id: 'ana', name: 'Ana', aliases: [] }],
  };
}

export function importRecord(id: string, text: string, day = 1) {
  return {
    id,
    date: `2025-06-${String((day % 28) + 1).padStart(2, '0')}`,
    rating: (day % 5) + 1,
    title: null,
    text,
    language: 'en',
    author: { name: 'Sam P.', location: null },
    source: { platform: 'google', url: null },
    verified: true,
    response: null,
  };
}

export function datasetFile(business: ReturnType<typeof businessDoc>, count: number) {
  const texts = ['Ana cleared the drain fast.', 'Friendly and on time.', 'A bit pricey but good work.', 'Would call again.'];
  return {
    business,
    reviews: Array.from({ length: count }, (_, i) => importRecord(`seed-${i}`, texts[i % texts.length]!, i)),
  };
}
