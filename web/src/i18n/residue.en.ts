/** English words of the residue rule (engine/DECISIONS.md, "Residue"): why a rate shows a dash. */
const residue = {
  residue: {
    zeroBase: 'No rate: the figure it is taken over is zero, so any percentage would be meaningless.',
  },
};
export default residue;
