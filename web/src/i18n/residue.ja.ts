import type residueEn from './residue.en';

/** 残差ルールの日本語（engine/DECISIONS.md「Residue」）：率がダッシュになる理由。 */
const residue: typeof residueEn = {
  residue: {
    zeroBase: '率なし：基準となる値がゼロのため、比率を計算しても意味がありません。',
  },
};
export default residue;
