package ui

// GCPercent is the dashboard's GOGC, set before its first frame unless GOGC
// or GOMEMLIMIT is: the heap may grow by half of what is live before a
// collection, so the headroom scales with the tickets loaded (a fixed limit
// turns into a collection spiral once they outgrow it) and a million of
// them stay under 500 MB. The UI benchmarks run with it.
const GCPercent = 50
