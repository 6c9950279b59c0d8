import type { CostItemYear } from '@topline/engine';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../format/numbers';
import { useCurrencySymbol } from '../../grid/currency';

/** The cost items table's columns: category, name, price, term, the year's total, and edit and delete when editable. */
export function useCostItemColumns(
  editable: boolean,
  actions: { edit: (item: CostItemYear) => void; remove: (item: CostItemYear) => void },
): ColDef<CostItemYear>[] {
  const { t } = useTranslation();
  // The amounts' headers name the plan's currency.
  const currency = useCurrencySymbol();
  return useMemo<ColDef<CostItemYear>[]>(
    () => [
      {
        headerName: t('ws.cost.category'),
        field: 'item_title',
        width: 140,
        valueFormatter: (p) => t(`ws.cost.categories.${String(p.value).replace(/^[a-z]+_/, '')}`),
      },
      { headerName: t('ws.cost.itemName'), field: 'item_name', flex: 1, minWidth: 140 },
      {
        headerName: `${t('ws.cost.price')} (${currency})`,
        field: 'price',
        type: 'rightAligned',
        width: 120,
        valueFormatter: (p) => formatNumber(p.value as number),
      },
      {
        headerName: t('ws.cost.term'),
        colId: 'term',
        width: 170,
        valueGetter: (p) =>
          p.data
            ? `${p.data.start_year}/${String(p.data.start_month).padStart(2, '0')} - ${p.data.end_year}/${String(p.data.end_month).padStart(2, '0')}`
            : '',
      },
      {
        headerName: `${t('ws.cost.yearTotal')} (${currency})`,
        field: 'total',
        type: 'rightAligned',
        width: 140,
        valueFormatter: (p) => formatNumber(p.value as number),
      },
      ...(editable
        ? [
            {
              headerName: '',
              colId: 'actions',
              width: 150,
              cellRenderer: (p: ICellRendererParams<CostItemYear>) =>
                p.data ? (
                  <span className="ws-row-actions">
                    <button type="button" className="link-button" onClick={() => p.data && actions.edit(p.data)}>
                      {t('ws.common.edit')}
                    </button>
                    <button type="button" className="link-button" onClick={() => p.data && actions.remove(p.data)}>
                      {t('ws.common.delete')}
                    </button>
                  </span>
                ) : null,
            } satisfies ColDef<CostItemYear>,
          ]
        : []),
    ],
    [t, editable, actions, currency],
  );
}
