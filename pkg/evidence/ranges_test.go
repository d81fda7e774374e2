package evidence

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"go.etcd.io/etcd/api/v3/mvccpb"
)

// TestAlphabetsCountNamesAsNumbers: counted in the characters names use, numbered names are consecutive numbers
// across a carry, where counted in bytes "secret-000999" and "secret-001000" are 247 times farther apart than
// "secret-000998" and "secret-000999". A name with a byte no name holds counts in bytes.
func TestAlphabetsCountNamesAsNumbers(t *testing.T) {
	keys := [][]byte{[]byte("secret-000998"), []byte("secret-000999"), []byte("secret-001000")}
	at := len("secret-00")
	digits := alphabets(keys, at)
	if digits == nil {
		t.Fatal("no digits for numbered names")
	}
	step, carry := value(digits, keys[1], at)-value(digits, keys[0], at), value(digits, keys[2], at)-value(digits, keys[1], at)
	if step == 0 || carry != step {
		t.Errorf("000998 to 000999 is %d, 000999 to 001000 is %d: want the same, not zero", step, carry)
	}
	if alphabets([][]byte{[]byte("a\x00b"), []byte("a\x01b")}, 1) != nil {
		t.Error("digits for names with a byte no name holds, want bytes")
	}
}

// TestAdvanceDigitsGoesForward: the scan's progress rests on every range ending after it starts. Whatever from is
// (shorter or longer than the digits, with bytes no member, ending at a member, with bytes above every member)
// and whatever the width, advanceDigits either carries into the bytes before at or returns a key greater than
// from.
func TestAdvanceDigitsGoesForward(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	names := func(n int) [][]byte {
		var keys [][]byte
		for range n {
			key := []byte("ns/")
			for range rng.IntN(10) {
				key = append(key, "0123456789abcxyz-.Z"[rng.IntN(19)])
			}
			keys = append(keys, key)
		}
		return keys
	}
	for i := range 20000 {
		keys := names(2 + rng.IntN(5))
		at := len("ns/") + rng.IntN(3)
		digits := alphabets(keys, at)
		if digits == nil {
			t.Fatalf("no digits for %q", keys)
		}
		from := []byte("ns/")
		for range rng.IntN(14) {
			from = append(from, byte(rng.IntN(256)))
		}
		width := []uint64{1, 2, uint64(rng.IntN(1000)) + 1, rng.Uint64() | 1, math.MaxUint64}[i%5]
		end, carry := advanceDigits(digits, from, at, width)
		if carry == 0 && bytes.Compare(end, from) <= 0 {
			t.Fatalf("from %q advanced by %d at %d in the digits of %q: %q, not after it", from, width, at, keys, end)
		}
		if !bytes.Equal(end[:at], append(bytes.Clone(from), make([]byte, at)...)[:at]) {
			t.Fatalf("from %q advanced at %d changed the bytes before it: %q", from, at, end)
		}
	}
}

// TestPageRangesEnd: every range the census chooses, whatever it has observed, ends after where it starts and no
// later than the prefix's end; and a run of short ranges reaches the rest of the prefix within the ladder's
// rungs (the termination argument in pageRanges' documentation).
func TestPageRangesEnd(t *testing.T) {
	const prefix = "/registry/secrets/"
	rng := rand.New(rand.NewPCG(5, 6))
	for round := range 300 {
		r := newPageRanges(prefix, 50)
		// A page of keys in a namespace or two, to estimate from: numbered names, generated names, or bytes.
		var kvs [][]byte
		for i := range 50 {
			ns := []string{"default", "openshift-etcd"}[min(i/(10+round%40), 1)]
			var name string
			switch round % 3 {
			case 0:
				name = fmt.Sprintf("secret-%06d", i*(1+round%7))
			case 1:
				name = fmt.Sprintf("token-%c%02d", 'a'+rng.IntN(26), rng.IntN(100))
			default:
				name = string([]byte{byte(rng.IntN(256)), byte(rng.IntN(256))})
			}
			kvs = append(kvs, []byte(prefix+ns+"/"+name))
		}
		slices.SortFunc(kvs, bytes.Compare)
		kvs = slices.CompactFunc(kvs, bytes.Equal)
		r.observe(prefix, r.end, kvsOf(kvs), true, 1000)
		from := string(kvs[len(kvs)-1]) + "\x00"
		for short := 0; ; short++ {
			next := r.next(from)
			if next <= from || next > r.end {
				t.Fatalf("round %d: range [%q, %q) after %d short ranges", round, from, next, short)
			}
			if next == r.end {
				break
			}
			if short > 1+1+8+1+8 {
				t.Fatalf("round %d: %d short ranges in a row without reading the rest of the prefix; at [%q, %q)", round, short, from, next)
			}
			// Nothing in the range: a short one.
			r.observe(from, next, nil, false, 0)
			from = next
			if r.done() {
				t.Fatalf("round %d: done without a read of the rest of the prefix", round)
			}
		}
	}
}

func kvsOf(keys [][]byte) []*mvccpb.KeyValue {
	kvs := make([]*mvccpb.KeyValue, 0, len(keys))
	for _, k := range keys {
		kvs = append(kvs, &mvccpb.KeyValue{Key: k})
	}
	return kvs
}
