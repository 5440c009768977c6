// Rule errors on an unfinished board, as the server judges them (POST /api/validate): the
// validator names every rule the marks do not yet meet, each `final` when it is broken
// already (no way of deciding the unknown cells repairs it) rather than unfinished, and
// the `complete` groups (regions, rows, clued lines: each {cells, region_id}) that hold what
// the rules ask. The genre decides all of it; this module only reads the answer: the board
// greys complete regions, and auto-marking fills the unknown cells of complete groups.

// The violations that are broken already.
export const brokenRules = (result) => (result.violations || []).filter((v) => v.final === true);

// The complete groups holding one of `cells`, each as its list of cells.
export function completeGroups(result, cells) {
  const touched = new Set(cells);
  return (result.complete || []).filter((g) => g.cells.some((c) => touched.has(c))).map((g) => g.cells);
}

// The ids of the complete groups that are regions (the board greys them).
export function completeRegions(result) {
  return new Set((result.complete || []).filter((g) => Number.isInteger(g.region_id)).map((g) => g.region_id));
}
