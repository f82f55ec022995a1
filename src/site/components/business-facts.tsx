import type { Business } from '../../domain/business.js';
import type { ServiceUrls } from '../../domain/urls.js';
import { isAbsoluteHttpUrl } from '../../feeds/feed-content.js';
import { formatHours } from '../format.js';

/** Contact, hours, areas, services and team: everything a customer looks for before calling. */
export function BusinessFacts({ business, urls }: { business: Business; urls: ServiceUrls }) {
  const a = business.address;
  const addressLines = a ? [a.street, [a.locality, a.region, a.postal_code].filter(Boolean).join(' '), a.country].filter(Boolean) : [];
  return (
    <aside class="facts" aria-labelledby="facts-title">
      <h2 id="facts-title" class="visually-hidden">
        About {business.name}
      </h2>
      <section class="card" aria-labelledby="contact-title">
        <h3 id="contact-title">Contact</h3>
        <ul class="plain">
          {business.telephone ? (
            <li>
              <span class="label">Phone</span>
              <a href={`tel:${business.telephone.replace(/[^+\d]/g, '')}`}>{business.telephone}</a>
            </li>
          ) : null}
          {business.email ? (
            <li>
              <span class="label">Email</span>
              <a href={`mailto:${business.email}`}>{business.email}</a>
            </li>
          ) : null}
          {business.url && isAbsoluteHttpUrl(business.url) ? (
            <li>
              <span class="label">Website</span>
              <a href={business.url}>{business.url.replace(/^https?:\/\//, '').replace(/\/$/, '')}</a>
            </li>
          ) : null}
        </ul>
        {addressLines.length ? (
          <address>
            {addressLines.map((line, i) => (
              <span key={i} class="line">
                {line}
              </span>
            ))}
          </address>
        ) : null}
      </section>
      {business.opening_hours.length ? (
        <section class="card" aria-labelledby="hours-title">
          <h3 id="hours-title">Opening hours</h3>
          <ul class="plain">
            {business.opening_hours.map((h) => (
              <li key={h}>
                <time>{formatHours(h)}</time>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {business.service_areas.length ? (
        <section class="card" aria-labelledby="areas-title">
          <h3 id="areas-title">Service areas</h3>
          <ul class="chips">
            {business.service_areas.map((s) => (
              <li key={s.id}>
                <a href={`${urls.base}/areas/${encodeURIComponent(s.id)}`}>{s.name}</a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {business.services.length ? (
        <section class="card" aria-labelledby="services-title">
          <h3 id="services-title">Services</h3>
          <ul class="chips">
            {business.services.map((s) => (
              <li key={s.id}>
                <a href={`${urls.base}/services/${encodeURIComponent(s.id)}`}>{s.name}</a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {business.technicians.length ? (
        <section class="card" aria-labelledby="team-title">
          <h3 id="team-title">Our team</h3>
          <ul class="plain team">
            {business.technicians.map((t) => (
              <li key={t.id}>
                <a href={`${urls.base}/technicians/${encodeURIComponent(t.id)}`}>{t.name}</a>
                {t.role ? <span class="muted"> · {t.role}</span> : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </aside>
  );
}
