import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import testimonials from '../../../../fixtures/landing/testimonials.json';
import { currentLanguage } from '../../i18n';

interface Testimonial {
  id: string;
  company: string;
  person: string;
  position: { ja: string; en: string };
  quote: { ja: string; en: string };
  image: string;
}

export const VOICES: readonly Testimonial[] = testimonials;

/** Index after a step of `delta` through `count` entries, wrapping around at both ends. */
export function wrapIndex(index: number, delta: number, count: number): number {
  return (((index + delta) % count) + count) % count;
}

/** The customer-voice carousel: one voice at a time; previous and next wrap around. */
export function VoicesCarousel() {
  const { t, i18n } = useTranslation();
  const language = currentLanguage(i18n.language);
  const [index, setIndex] = useState(0);
  const voice = VOICES[index];
  if (!voice) return null;
  return (
    <div className="carousel">
      <button
        type="button"
        className="carousel-nav prev"
        aria-label={t('landing.voicesPrev')}
        onClick={() => setIndex((i) => wrapIndex(i, -1, VOICES.length))}
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
        onClick={() => setIndex((i) => wrapIndex(i, 1, VOICES.length))}
      >
        ›
      </button>
      <p className="carousel-position">{t('landing.voicesPosition', { index: index + 1, total: VOICES.length })}</p>
    </div>
  );
}
