package conditions

// Severity orders a controller's condition reasons: when several hold, the most severe names the condition and
// the message lists them all. It is built from the reasons most severe first, so that the declaration reads in
// the order an admin has to act.
type Severity[R ~string] struct {
	rank map[R]int
}

// NewSeverity ranks reasons, most severe first. A reason given twice keeps its first rank.
func NewSeverity[R ~string](mostSevereFirst ...R) Severity[R] {
	rank := make(map[R]int, len(mostSevereFirst))
	for i, r := range mostSevereFirst {
		if _, ok := rank[r]; !ok {
			rank[r] = i
		}
	}
	return Severity[R]{rank: rank}
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
