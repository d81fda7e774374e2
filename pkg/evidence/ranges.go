package evidence

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/bits"
	"strings"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"
)

const (
	// rangePages is how many pages of keys an estimated range is meant to hold. A range that holds more costs
	// etcd a count of a few hundred keys; one that holds less than a page costs a round trip, which costs etcd
	// and the client about as much as counting a few thousand.
	rangePages = 3
	// knownPages bounds the ranges whose count is known (the rest of a range that held more than its page,
	// the rest of the prefix) that are read again as they are rather than estimated.
	knownPages = 3
	// recentNamespaces is how many of the last namespaces read the estimate between namespaces is made from.
	recentNamespaces = 8
)

// pageRanges chooses the range of each page of a scan after the first: etcd counts every key of a range read's
// whole range, not only the page it returns (treeIndex.Revisions, under the index's read lock), so pages over
// the rest of the prefix would cost etcd about n²/(2·PageSize) key visits for n keys. BenchmarkCensusRanges
// measures the ranges chosen on layouts of a cluster's size.
//
// What a read tells, and what it is used for:
//   - A read over the rest of the prefix counts the keys left at the scan's revision: every later read takes
//     its keys off, the scan ends without another read when none are left, and once knownPages or fewer are
//     left the next range is the rest of the prefix, whose count is then known to be small.
//   - A read that held more than its page leaves [after its last key, its end) with a known count: a range
//     of one to knownPages pages is read again as it is; a smaller one is read together with an estimate
//     past it; a larger one caps the estimate.
//   - The keys of a page estimate the next range, in pages of rangePages: their spacing where the first and
//     the last differ, counted in the characters the names use (digits, letters, "-./:_"; see alphabet) so
//     that "secret-000999" is next to "secret-001000", or in bytes when a name holds other bytes. When most of
//     the page is one namespace the estimate is made from its keys and the range stops at the namespace's
//     end, so that a namespace read to its end is known to be.
//   - After a namespace is read to its end, or once a read leaves the namespace its estimate was made in, the
//     next range is estimated between namespaces, from the names and key counts of the last
//     recentNamespaces namespaces: as many names as hold rangePages pages.
//   - The rest of a namespace is read, once, when the namespaces before it held on average no more than
//     knownPages pages more than was read of it, and after a range that held less than half of what its
//     estimate expected: the namespace is likely ending, and its rest costs little to count.
//
// A short range, one that ends with fewer than half a page, means the keys thin out or a gap starts (the end
// of a namespace, of a group of namespaces, of a run of numbers). Short ranges in a row climb a ladder:
//  1. the estimate, 256 times wider (counted in digits, only while that fits a uint64);
//  2. the rest of the namespace, when the range ended inside the last one read;
//  3. the rest of the keys that share the first d bytes of the last key read and of the range's end, d
//     halved towards the prefix at every further short range;
//  4. the keys whose first byte after the prefix is less than the range's end's plus 2, 4, ... 256;
//  5. the rest of the prefix.
//
// Termination: every range starts where the last read ended and ends after its start, at the prefix's end at
// the latest, so the ranges cover the prefix once, in order, and the scan ends after a read over the rest of the
// prefix that holds no more. A run of short ranges climbs the ladder in at most 1 + 1 + log2(key length) + 1
// + 8 reads to the rest of the prefix, which ends the scan unless it returns a full page. A run ends only with
// a read of half a page or more (at most 2n/PageSize + 1 of them) or with a namespace read to its end (once
// per namespace). Correctness does not depend on any estimate; a bad one costs a count or a round trip.
type pageRanges struct {
	prefix   string
	pageSize int64
	end      string

	step rangeStep
	// The estimate: from advanced by width at byte at, counted in digits when they are set, else in bytes.
	at     int
	width  uint64
	digits []alphabet
	// base is the bytes before at the estimate was made under, between whether it was made from namespace
	// names, and namespace the namespace whose keys made it (nil when it was made across namespaces).
	base      []byte
	between   bool
	namespace []byte
	// widened says the estimate was widened after a short range.
	widened bool
	// depth is the length of the prefix stepSubtree reads the rest of; span is stepFirstBytes' width.
	depth int
	span  int
	// namespaces are the last namespaces keys were read from, oldest first; last is the last key read.
	namespaces []namespaceKeys
	last       []byte
	// remaining is how many keys are left to read at the scan's revision, -1 until a read over the rest of
	// the prefix counted them.
	remaining int64
	// knownEnd and knownKeys: after a read that held more than its page, the end of its range and how many
	// keys are left in it; "" otherwise.
	knownEnd  string
	knownKeys int64
	// restRead is the last namespace whose rest was read because few keys were expected to be left in it.
	restRead []byte
	// estimated says the last range was chosen by the step, not by a known count.
	estimated bool
}

type rangeStep int

const (
	// stepRest reads the rest of the prefix.
	stepRest rangeStep = iota
	// stepEstimate reads what the estimate expects to hold rangePages pages.
	stepEstimate
	// stepNamespaces reads from the end of a namespace what the last namespaces expect to hold rangePages pages.
	stepNamespaces
	// stepRestOfNamespace reads the rest of from's namespace.
	stepRestOfNamespace
	// stepSubtree reads the rest of the keys that share from's first depth bytes.
	stepSubtree
	// stepFirstBytes reads the keys whose first byte after the prefix is less than from's plus span.
	stepFirstBytes
)

// namespaceKeys is a namespace's key prefix (<prefix><namespace>, without the "/") and how many of its keys
// were read.
type namespaceKeys struct {
	name []byte
	keys int64
}

func newPageRanges(prefix string, pageSize int64) pageRanges {
	return pageRanges{prefix: prefix, pageSize: pageSize, end: clientv3.GetPrefixRangeEnd(prefix), remaining: -1}
}

// done says that no key is left to read at the scan's revision.
func (r *pageRanges) done() bool { return r.remaining == 0 }

// observe learns from the read of [from, next): the keys it returned, whether its range held more, and etcd's
// count of the range.
func (r *pageRanges) observe(from, next string, kvs []*mvccpb.KeyValue, more bool, count int64) {
	n := int64(len(kvs))
	r.record(kvs)
	switch {
	case next == r.end:
		r.remaining = count - n
	case r.remaining >= 0:
		r.remaining -= n
	}
	r.knownEnd, r.knownKeys = "", 0
	if more {
		r.knownEnd, r.knownKeys = next, count-n
	}

	if ns, ok := r.namespaceOf([]byte(from)); ok && !more && next == namespaceEnd(ns) && r.isLastNamespace(ns) {
		// The namespace is read to its end.
		r.step, r.widened = stepNamespaces, false
		return
	}
	if more || n >= r.pageSize/2 {
		// A read over an estimate that held less than half of what was expected: the keys thin out, likely
		// towards the end of the namespace, whose rest then costs little to count.
		thin := !more && r.estimated && r.step == stepEstimate && count < rangePages*r.pageSize/2 && r.inLastNamespace(next)
		r.estimatePage(kvs)
		if thin {
			r.step = stepRestOfNamespace
		}
		return
	}

	// A short range: the next rung of the ladder.
	switch r.step {
	case stepEstimate, stepNamespaces:
		switch {
		case !r.widened && (r.digits == nil || r.width < math.MaxUint64/256):
			// In bytes one byte to the left; in digits, which count no further than a uint64, while they can.
			r.widened, r.step = true, stepEstimate
			if r.digits != nil {
				r.width *= 256
			} else {
				r.set(r.at-1, float64(r.width)) // the rest of the prefix past the first byte
			}
		case r.inLastNamespace(next):
			r.step = stepRestOfNamespace
		default:
			r.climbSubtree(next)
		}
	case stepRestOfNamespace:
		r.climbSubtree(next)
	case stepSubtree:
		if r.depth > len(r.prefix)+1 {
			r.depth = max(len(r.prefix)+(r.depth-len(r.prefix))/2, len(r.prefix)+1)
		} else {
			r.step, r.span = stepFirstBytes, 2
		}
	case stepFirstBytes:
		if r.span < 256 {
			r.span *= 2
		} else {
			r.step = stepRest
		}
	}
}

// fewLeftIn says that the last namespace read has knownPages pages or fewer left if it holds as many keys as the
// namespaces before it did on average.
func (r *pageRanges) fewLeftIn() bool {
	k := len(r.namespaces)
	if k < 2 {
		return false
	}
	var before int64
	for _, ns := range r.namespaces[:k-1] {
		before += ns.keys
	}
	return before/int64(k-1)-r.namespaces[k-1].keys <= knownPages*r.pageSize
}

// climbSubtree starts the ladder's third rung after a short range that ended at next.
func (r *pageRanges) climbSubtree(next string) {
	r.step, r.depth = stepSubtree, max(commonPrefixLen([]byte(next), r.last), len(r.prefix)+1)
}

// next is the end of the range of the page that starts at from.
func (r *pageRanges) next(from string) string {
	r.estimated = false
	if r.remaining >= 0 && r.remaining <= knownPages*r.pageSize {
		return r.end
	}
	if r.knownEnd != "" && r.knownKeys >= r.pageSize && r.knownKeys <= knownPages*r.pageSize {
		return r.knownEnd
	}
	r.estimated = true
	end := r.chosenEnd(from)
	if r.knownEnd != "" {
		if r.knownKeys < r.pageSize {
			end = max(end, r.knownEnd)
		} else {
			end = min(end, r.knownEnd)
		}
	}
	return end
}

// chosenEnd is the end of the range from from that the current step chooses.
func (r *pageRanges) chosenEnd(from string) string {
	ns, inNamespace := r.namespaceOf([]byte(from))
	switch r.step {
	case stepRest:
		return r.end
	case stepRestOfNamespace:
		if inNamespace {
			return namespaceEnd(ns)
		}
		return r.end
	case stepSubtree:
		return clientv3.GetPrefixRangeEnd(from[:min(r.depth, len(from))])
	case stepFirstBytes:
		if len(from) <= len(r.prefix) || int(from[len(r.prefix)])+r.span > 0xff {
			return r.end
		}
		return r.prefix + string([]byte{from[len(r.prefix)] + byte(r.span)})
	case stepNamespaces:
		r.estimateNamespaces()
	case stepEstimate:
		if r.namespace != nil && (!inNamespace || !bytes.Equal(ns, r.namespace)) {
			// The read left the namespace the estimate was made in.
			r.estimateNamespaces()
		} else if r.namespace != nil && !bytes.Equal(r.restRead, ns) && r.fewLeftIn() {
			// The namespaces before held about as many keys as this one has left to read: read its rest,
			// once, so that its end is known without a short range.
			r.restRead = bytes.Clone(ns)
			return namespaceEnd(ns)
		}
	}
	if r.step == stepRest {
		return r.end
	}
	if (r.between || len(from) <= r.at) && !strings.HasPrefix(from, string(r.base)) {
		// from is past the namespaces the estimate was made from, or ends before the byte it counts from: the rest
		// of the keys that share from's bytes up to the first where it differs from them, and that byte.
		return clientv3.GetPrefixRangeEnd(from[:min(max(commonPrefixLen([]byte(from), r.base), len(r.prefix))+1, len(from))])
	}
	end, ok := r.advance(from)
	if !ok || string(end) >= r.end {
		return r.end
	}
	if inNamespace && r.at > len(ns) {
		if nsEnd := namespaceEnd(ns); string(end) > nsEnd {
			return nsEnd
		}
	}
	return string(end)
}

// advance is from advanced by the estimate, and false when that carries past the first byte.
func (r *pageRanges) advance(from string) ([]byte, bool) {
	var end []byte
	var carry uint64
	if r.digits != nil {
		end, carry = advanceDigits(r.digits, []byte(from), r.at, r.width)
	} else {
		end = make([]byte, r.at+8)
		copy(end, from)
		var u uint64
		u, carry = bits.Add64(block(end, r.at), r.width, 0)
		binary.BigEndian.PutUint64(end[r.at:], u)
	}
	// Add the carry to the bytes before at, read as a big-endian number.
	for i := r.at - 1; carry != 0 && i >= 0; i-- {
		sum := uint64(end[i]) + carry&0xff
		end[i] = byte(sum)
		carry = carry>>8 + sum>>8
	}
	return end, carry == 0
}

// estimatePage estimates the next range from the keys of a page: from those of its last key's namespace when they
// are at least half of the page, else from all of them.
func (r *pageRanges) estimatePage(kvs []*mvccpb.KeyValue) {
	r.step, r.widened, r.between, r.namespace = stepEstimate, false, false, nil
	n := len(kvs)
	if n < 2 {
		r.step = stepRest
		return
	}
	first := 0
	if ns, ok := r.namespaceOf(kvs[n-1].Key); ok {
		j := n - 1
		for j > 0 && r.isNamespaceOf(kvs[j-1].Key, ns) {
			j--
		}
		if n-j >= 2 && n-j >= n/2 {
			first, r.namespace = j, bytes.Clone(ns)
		}
	}
	keys := make([][]byte, 0, n-first)
	for _, kv := range kvs[first:] {
		keys = append(keys, kv.Key)
	}
	r.estimate(keys, uint64(rangePages*r.pageSize))
}

// estimateNamespaces estimates the range after a namespace from the names of the last namespaces read and their
// keys: as many names as hold rangePages pages, one at least.
func (r *pageRanges) estimateNamespaces() {
	r.step, r.between, r.namespace = stepEstimate, true, nil
	k := len(r.namespaces)
	if k == 0 {
		r.step = stepRest
		return
	}
	if k == 1 {
		// Two steps of the name's last byte.
		name := r.namespaces[0].name
		r.base = bytes.Clone(name[:len(name)-1])
		r.set(len(name)-1, 2<<56)
		return
	}
	var keys int64
	names := make([][]byte, 0, k)
	for _, ns := range r.namespaces {
		keys += ns.keys
		names = append(names, ns.name)
	}
	// rangePages pages hold this many names, rounded up: keys/k per namespace.
	r.estimate(names, uint64(max(1, (rangePages*r.pageSize*int64(k)+keys-1)/keys)))
}

// estimate sets the estimate to times the mean spacing of the sorted keys, or of as many as fit in a uint64.
func (r *pageRanges) estimate(keys [][]byte, times uint64) {
	a, b := keys[0], keys[len(keys)-1]
	at := commonPrefixLen(a, b)
	r.base = bytes.Clone(a[:at])
	digits := alphabets(keys, at)
	number := func(key []byte) uint64 { return block(key, at) }
	if digits != nil {
		number = func(key []byte) uint64 { return value(digits, key, at) }
	}
	// (last - first) · times / (keys - 1), rounded up, in 128 bits: exact, so that the range after a namespace
	// ends where the spacing of the names before it says the next one ends.
	div := uint64(len(keys) - 1)
	hi, lo := bits.Mul64(number(b)-number(a), times)
	lo, c := bits.Add64(lo, div-1, 0)
	hi += c
	width := uint64(math.MaxUint64)
	if hi < div {
		width, _ = bits.Div64(hi, lo, div)
	}
	if digits != nil {
		r.at, r.digits, r.width = at, digits, max(width, 1)
		return
	}
	r.set(at, float64(width))
}

// set sets a width in bytes at byte at, moved one byte to the left (and divided by 256) while it is 2^56 or
// more: advance adds it to the 8 bytes from at, which it must fit. Past the first byte the next range is the
// rest of the prefix.
func (r *pageRanges) set(at int, width float64) {
	r.digits = nil
	for width >= 1<<56 && at > 0 {
		width /= 256
		at--
	}
	if at < 0 || width >= 1<<56 {
		r.step = stepRest
		return
	}
	r.at, r.width = at, saturate(width)
}

// record adds the keys to the namespaces read.
func (r *pageRanges) record(kvs []*mvccpb.KeyValue) {
	for _, kv := range kvs {
		ns, ok := r.namespaceOf(kv.Key)
		if !ok {
			continue
		}
		if r.isLastNamespace(ns) {
			r.namespaces[len(r.namespaces)-1].keys++
			continue
		}
		if len(r.namespaces) == recentNamespaces {
			r.namespaces = append(r.namespaces[:0], r.namespaces[1:]...)
		}
		r.namespaces = append(r.namespaces, namespaceKeys{name: bytes.Clone(ns), keys: 1})
	}
	if len(kvs) > 0 {
		r.last = bytes.Clone(kvs[len(kvs)-1].Key)
	}
}

// namespaceOf is the namespace part of key (<prefix><namespace>), and false when key has no "/" after the
// prefix: a cluster-scoped object, or a key between namespaces.
func (r *pageRanges) namespaceOf(key []byte) ([]byte, bool) {
	if len(key) <= len(r.prefix) {
		return nil, false
	}
	i := bytes.IndexByte(key[len(r.prefix):], '/')
	if i < 0 {
		return nil, false
	}
	return key[:len(r.prefix)+i], true
}

// isNamespaceOf says ns is key's namespace.
func (r *pageRanges) isNamespaceOf(key, ns []byte) bool {
	keyNS, ok := r.namespaceOf(key)
	return ok && bytes.Equal(keyNS, ns)
}

func (r *pageRanges) isLastNamespace(ns []byte) bool {
	return len(r.namespaces) > 0 && bytes.Equal(r.namespaces[len(r.namespaces)-1].name, ns)
}

// inLastNamespace says key is in the last namespace keys were read from.
func (r *pageRanges) inLastNamespace(key string) bool {
	ns, ok := r.namespaceOf([]byte(key))
	return ok && r.isLastNamespace(ns)
}

// namespaceEnd is the smallest key after every key of the namespace name: the name followed by the byte after "/".
func namespaceEnd(name []byte) string {
	return string(name) + "0"
}

// alphabet is what a position of the keys is expected to hold: the character classes of the bytes seen there
// (0-9, a-z, A-Z, and "-./:_" each by itself). Counted in these digits, keys that use few characters are spread
// as evenly as numbers, where counted in bytes they leave gaps (between "9" and "a", after "z") that ranges fall
// into. Its digits are the members in order, after a digit for a key that ends before the position when one
// of the keys does; a byte that is no member counts as the member above it, or the last one.
type alphabet struct {
	members []byte
	// ends says digit 0 is a key that ends before the position.
	ends bool
	// below[b] is how many members are less than b.
	below [256]uint16
}

func (a *alphabet) offset() uint64 {
	if a.ends {
		return 1
	}
	return 0
}

func (a *alphabet) base() uint64 { return uint64(len(a.members)) + a.offset() }

// byteOf is the byte of digit d: the smallest byte for a key that ends, which a later digit continues.
func (a *alphabet) byteOf(d uint64) byte {
	if d < a.offset() {
		return 0
	}
	return a.members[d-a.offset()]
}

// digit is the digit of key's byte at position p.
func (a *alphabet) digit(key []byte, p int) uint64 {
	if p >= len(key) {
		return 0
	}
	return a.offset() + min(uint64(a.below[key[p]]), uint64(len(a.members))-1)
}

// alphabets are the alphabets of the positions from at of the keys, as many as a uint64 counts in, or nil when a
// key holds a byte no name holds there.
func alphabets(keys [][]byte, at int) []alphabet {
	var digits []alphabet
	product := uint64(1)
	for p := at; len(digits) < 16; p++ {
		// The bytes the keys hold here, then each widened to its class: once per position, not per key.
		var bytesHeld, seen [256]bool
		held, ends := false, false
		for _, key := range keys {
			if p >= len(key) {
				ends = true
				continue
			}
			held = true
			bytesHeld[key[p]] = true
		}
		for c, ok := range bytesHeld {
			if !ok {
				continue
			}
			lo, hi, name := nameClass(byte(c))
			if !name {
				return nil
			}
			for d := int(lo); d <= int(hi); d++ {
				seen[d] = true
			}
		}
		if !held {
			// Past every key: any byte.
			for c := range seen {
				seen[c] = true
			}
		}
		a := alphabet{ends: ends}
		for c := range 256 {
			a.below[c] = uint16(len(a.members))
			if seen[c] {
				a.members = append(a.members, byte(c))
			}
		}
		hi, lo := bits.Mul64(product, a.base())
		if hi != 0 || lo > 1<<62 {
			break
		}
		product = lo
		digits = append(digits, a)
	}
	return digits
}

// nameClass is the character class of a byte that names hold, as the range of its bytes, and false for a byte
// they do not.
func nameClass(b byte) (lo, hi byte, ok bool) {
	switch {
	case b >= '0' && b <= '9':
		return '0', '9', true
	case b >= 'a' && b <= 'z':
		return 'a', 'z', true
	case b >= 'A' && b <= 'Z':
		return 'A', 'Z', true
	case strings.IndexByte("-./:_", b) >= 0:
		return b, b, true
	}
	return 0, 0, false
}

// value is key's number in the digits from at.
func value(digits []alphabet, key []byte, at int) uint64 {
	var v uint64
	for i := range digits {
		v = v*digits[i].base() + digits[i].digit(key, at+i)
	}
	return v
}

// advanceDigits is from's first at bytes followed by the digits of from's value plus width, and what that
// carries into the bytes before at. Without a carry the result is greater than from: up to the first digit
// that differs from from's it copies from's bytes (or, where from has ended, makes itself longer), and that
// digit is greater than from's, so its byte is greater than from's byte or than a from that has ended.
func advanceDigits(digits []alphabet, from []byte, at int, width uint64) ([]byte, uint64) {
	product := uint64(1)
	for i := range digits {
		product *= digits[i].base()
	}
	lo, hi := bits.Add64(value(digits, from, at), width, 0)
	carry, e := bits.Div64(hi, lo, product)
	d := make([]uint64, len(digits))
	for i := len(digits) - 1; i >= 0; i-- {
		d[i] = e % digits[i].base()
		e /= digits[i].base()
	}
	// Trailing digits that end the key are left out.
	last := len(d) - 1
	for last >= 0 && d[last] == 0 && digits[last].ends {
		last--
	}
	end := make([]byte, at, at+len(digits))
	copy(end, from)
	same := carry == 0
	for i := 0; i <= last; i++ {
		p, a := at+i, &digits[i]
		switch {
		case same && d[i] == a.digit(from, p) && p < len(from):
			end = append(end, from[p])
		default:
			// The first digit greater than from's, a later one, or from has ended and anything longer is after it.
			same = false
			end = append(end, a.byteOf(d[i]))
		}
	}
	return end, carry
}

// block is the big-endian number of the 8 bytes of key from byte at, zero-padded.
func block(key []byte, at int) uint64 {
	var b [8]byte
	if at < len(key) {
		copy(b[:], key[at:])
	}
	return binary.BigEndian.Uint64(b[:])
}

func commonPrefixLen(a, b []byte) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// saturate converts a width to uint64, math.MaxUint64 when it does not fit, and at least 1.
func saturate(f float64) uint64 {
	switch {
	case f >= math.MaxUint64:
		return math.MaxUint64
	case f < 1:
		return 1
	default:
		return uint64(f)
	}
}
