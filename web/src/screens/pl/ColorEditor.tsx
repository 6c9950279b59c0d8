import type { ColorSet } from '@topline/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deriveColorSets, normalizeHex } from '../../format/colors';

const KEYS = ['arr', 'gross_profit', 'pl'] as const;
const SET_NAMES = ['first', 'second', 'third'] as const;

/**
 * The chart colours: view, edit (a working copy of the first set), posting, and back to view on 201. The 2nd and
 * 3rd sets derive from the first; hex values are normalised; each colour is a chip beside its name and hex value.
 */
export function ColorEditor({
  colors,
  editable,
  onSave,
}: {
  colors: ColorSet[];
  editable: boolean;
  onSave: (colors: ColorSet[]) => Promise<boolean>;
}) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<'view' | 'edit' | 'posting'>('view');
  const [draft, setDraft] = useState<Record<(typeof KEYS)[number], string>>({ arr: '', gross_profit: '', pl: '' });
  const first = colors[0];
  const normal = {
    arr: normalizeHex(draft.arr),
    gross_profit: normalizeHex(draft.gross_profit),
    pl: normalizeHex(draft.pl),
  };
  const valid = KEYS.every((k) => normal[k] !== null);
  const sets = mode === 'view' ? colors : valid ? deriveColorSets(normal as ColorSet) : colors;

  return (
    <section className="ws-card ws-colors" data-test="color-editor">
      <header className="ws-card-header">
        <h3>{t('ws.pl.colors')}</h3>
        {mode === 'view' && editable && first && (
          <button
            type="button"
            className="button button-small button-ghost"
            onClick={() => {
              setDraft({ arr: first.arr, gross_profit: first.gross_profit, pl: first.pl });
              setMode('edit');
            }}
          >
            {t('ws.common.edit')}
          </button>
        )}
      </header>
      <div className="ws-color-sets">
        {SET_NAMES.slice(0, sets.length).map((setName, index) => {
          const set = sets[index] as ColorSet;
          return (
            <div key={setName} className="ws-color-set">
              <span className="muted">{t('ws.pl.colorSet', { n: index + 1 })}</span>
              {KEYS.map((key) => (
                <span key={key} className="ws-swatch" data-test={`swatch-${index + 1}-${key}`}>
                  {/* The colour as a chip beside its name, which stays legible on the page's own background. */}
                  <span className="ws-swatch-chip" style={{ background: set[key] }} aria-hidden="true" />
                  {t(`ws.pl.colorKey.${key}`)} {set[key]}
                </span>
              ))}
            </div>
          );
        })}
      </div>
      {mode !== 'view' && (
        <div className="ws-color-form">
          {KEYS.map((key) => (
            <label key={key} className="field ws-inline-field">
              <span>{t(`ws.pl.colorKey.${key}`)}</span>
              <input
                value={draft[key]}
                maxLength={7}
                aria-invalid={normal[key] === null}
                onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
              />
            </label>
          ))}
          <div className="form-actions">
            <button type="button" className="button button-ghost" onClick={() => setMode('view')}>
              {t('common.cancel')}
            </button>
            <button
              type="button"
              className="button button-primary"
              disabled={!valid || mode === 'posting'}
              onClick={() => {
                setMode('posting');
                void onSave(deriveColorSets(normal as ColorSet)).then((ok) => setMode(ok ? 'view' : 'edit'));
              }}
            >
              {t('ws.common.save')}
            </button>
          </div>
        </div>
      )}
    </section>
  );
}
