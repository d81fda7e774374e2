package conditions

// Severity orders a controller's condition reasons: when several hold, the most severe names the condition and
// the message lists them all. It is built from the reasons most severe first, so that the declaration reads in
// the order an admin has to act.
type Severity[R ~string] struct {
	rank  map[R]int
	order []R
}

// NewSeverity ranks reasons, most severe first. A reason given twice keeps its first rank.
func NewSeverity[R ~string](mostSevereFirst ...R) Severity[R] {
	rank := make(map[R]int, len(mostSevereFirst))
	order := make([]R, 0, len(mostSevereFirst))
	for i, r := range mostSevereFirst {
		if _, ok := rank[r]; !ok {
			rank[r] = i
			order = append(order, r)
		}
	}
	return Severity[R]{rank: rank, order: order}
}

// Rank is r's position, 0 for the most severe; a reason that was not ranked comes after every ranked one.
func (s Severity[R]) Rank(r R) int {
	if i, ok := s.rank[r]; ok {
		return i
	}
	return len(s.rank)
}

// MoreSevere says whether a is strictly more severe than b.
func (s Severity[R]) MoreSevere(a, b R) bool { return s.Rank(a) < s.Rank(b) }

// Reasons are the ranked reasons, most severe first, each once: a package derives the reasons it registers
// (ConditionReasons) and the values of its metrics' reason labels from its one order instead of keeping another
// list by hand.
func (s Severity[R]) Reasons() []R { return append([]R(nil), s.order...) }
