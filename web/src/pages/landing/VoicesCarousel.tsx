import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LandingContent } from '../../config';
import { currentLanguage } from '../../i18n';

type Testimonial = LandingContent['testimonials'][number];

/** Index after a step of `delta` through `count` entries, wrapping around at both ends. */
export function wrapIndex(index: number, delta: number, count: number): number {
  return (((index + delta) % count) + count) % count;
}

/** The customer-voice carousel of the landing content: one voice at a time; previous and next wrap around. */
export function VoicesCarousel({ voices }: { voices: readonly Testimonial[] }) {
  const { t, i18n } = useTranslation();
  const language = currentLanguage(i18n.language);
  const [index, setIndex] = useState(0);
  const voice = voices[index];
  if (!voice) return null;
  return (
    <div className="carousel">
      <button
        type="button"
        className="carousel-nav prev"
        aria-label={t('landing.voicesPrev')}
        onClick={() => setIndex((i) => wrapIndex(i, -1, voices.length))}
      >
        ‹
      </button>
      <figure className="voice" data-voice={voice.id}>
        <img src={voice.image} alt="" width={72} height={72} />
        <blockquote>{voice.quote[language]}</blockquote>
        <figcaption>
          <strong>{voice.person}</strong>
          <span>
            {voice.position[language]} · {voice.company}
          </span>
        </figcaption>
      </figure>
      <button
        type="button"
        className="carousel-nav next"
        aria-label={t('landing.voicesNext')}
        onClick={() => setIndex((i) => wrapIndex(i, 1, voices.length))}
      >
        ›
      </button>
      <p className="carousel-position">{t('landing.voicesPosition', { index: index + 1, total: voices.length })}</p>
    </div>
  );
}
