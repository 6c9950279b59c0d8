import type { PlYearRow } from '@topline/engine';
import type { ColorSetWire } from '../../working/models';

export interface PlCase {
  case_id: number;
  case_name: string;
  case_rate: number;
  model: { model_name: string; model_rate: number[] } | null;
  pl: PlYearRow[];
}

export interface PlAnswer {
  values: PlCase[];
  colors: ColorSetWire[];
}
