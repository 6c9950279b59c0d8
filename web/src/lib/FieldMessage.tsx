import { useTranslation } from 'react-i18next';
import type { FieldError } from './validation';

/** A field's validation message in the current language. */
export function FieldMessage({ error, field, id }: { error: FieldError | null; field: string; id?: string }) {
  const { t } = useTranslation();
  if (!error) return null;
  return (
    <p className="field-error" id={id} role="alert">
      {t(`validation.${error.key}`, { field, num: error.num })}
    </p>
  );
}
