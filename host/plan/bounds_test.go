package plan_test

import (
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// stopReader serves prefix and then fails the test if it is read again:
// the decoder must have decided from the prefix alone. It stands for a
// child that wrote the offending bytes and then holds the pipe open: a
// decoder that asked for more would block there until the deadline.
type stopReader struct {
	t      *testing.T
	prefix []byte
	after  bool
}

func (r *stopReader) Read(p []byte) (int, error) {
	if len(r.prefix) == 0 {
		if !r.after {
			r.t.Error("decoder read past the bytes that decide the violation")
		}
		r.after = true
		return 0, errors.New("read past the violation")
	}
	n := copy(p, r.prefix)
	r.prefix = r.prefix[n:]
	return n, nil
}

// endless repeats unit after a head forever and counts what it served.
type endless struct {
	head, unit []byte
	at         int // position within unit
	served     int64
}

func (r *endless) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(r.head) > 0 {
			k := copy(p[n:], r.head)
			r.head = r.head[k:]
			n += k
			continue
		}
		k := copy(p[n:], r.unit[r.at:])
		r.at = (r.at + k) % len(r.unit)
		n += k
	}
	r.served += int64(n)
	return n, nil
}

func limits(t *testing.T, b int64, n int, f int64) plan.Limits {
	t.Helper()
	l, err := plan.NewLimits(b, n, f)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func wantRule(t *testing.T, err error, r schema.Rule) {
	t.Helper()
	if !errors.Is(err, rejection.Rule(r)) {
		t.Fatalf("got %v, want %s", err, r)
	}
}

func TestStopsAtTheIntentBound(t *testing.T) {
	del := `{"op":"delete","path":"a"},`
	prefix := `{"protocol":1,"intents":[` + strings.Repeat(del, 3) + `{`
	_, err := plan.Decode(&stopReader{t: t, prefix: []byte(prefix)}, limits(t, 1<<20, 3, 1<<10))
	wantRule(t, err, schema.RulePlanTooManyIntents)
}

func TestStopsWithinAnOversizedField(t *testing.T) {
	prefix := `{"protocol":1,"intents":[{"op":"write","path":"a","content":"` + strings.Repeat("x", 101)
	_, err := plan.Decode(&stopReader{t: t, prefix: []byte(prefix)}, limits(t, 1<<20, 10, 100))
	wantRule(t, err, schema.RulePlanFieldTooLarge)
}

func TestStopsAtTheByteBound(t *testing.T) {
	const max = 1000
	prefix := `{"protocol":1,"intents":[` + strings.Repeat(" ", max+1-len(`{"protocol":1,"intents":[`))
	if len(prefix) != max+1 {
		t.Fatal("bad fixture")
	}
	_, err := plan.Decode(&stopReader{t: t, prefix: []byte(prefix)}, limits(t, max, 10, 100))
	wantRule(t, err, schema.RulePlanTooLarge)
}

// TestEndlessInputTerminates feeds unbounded streams: each must end in its
// bound's rule, having read no more than the bound allows.
func TestEndlessInputTerminates(t *testing.T) {
	const max, intents, field = 1 << 20, 1000, 4096
	tests := []struct {
		name string
		r    *endless
		rule schema.Rule
		cap  int64 // the most the decoder may have read
	}{
		{"whitespace", &endless{head: []byte(`{"protocol":1,"intents":[`), unit: []byte(" ")}, schema.RulePlanTooLarge, max + 1},
		{"string", &endless{head: []byte(`{"protocol":1,"intents":[{"op":"write","path":"a","content":"`), unit: []byte("x")}, schema.RulePlanFieldTooLarge, 100 + field + 32<<10},
		{"intents", &endless{head: []byte(`{"protocol":1,"intents":[`), unit: []byte(`{"op":"delete","path":"a"},`)}, schema.RulePlanTooManyIntents, 100 + 27*intents + 32<<10},
		{"headers", &endless{head: []byte(`{"protocol":1,"intents":[{"op":"fetch","url":"https://e.org/","dest":"a","headers":{"A":"`), unit: []byte(`b","A":"`)}, schema.RulePlanDuplicateKey, 200 + 32<<10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := plan.Decode(tt.r, limits(t, max, intents, field))
			wantRule(t, err, tt.rule)
			if tt.r.served > tt.cap {
				t.Fatalf("read %d bytes, at most %d allowed", tt.r.served, tt.cap)
			}
		})
	}
}

func TestBoundsAreInclusive(t *testing.T) {
	del := `{"op":"delete","path":"a"}`
	p := wrap(del, del)
	if _, err := plan.Decode(strings.NewReader(p), limits(t, int64(len(p)), 2, 6)); err != nil {
		t.Fatalf("a plan of exactly the bounds was refused: %v", err)
	}
	_, err := plan.Decode(strings.NewReader(p+" "), limits(t, int64(len(p)), 2, 6))
	wantRule(t, err, schema.RulePlanTooLarge)
	_, err = plan.Decode(strings.NewReader(wrap(del, del, del)), limits(t, 1<<10, 2, 6))
	wantRule(t, err, schema.RulePlanTooManyIntents)

	w := wrap(`{"op":"write","path":"a","content":"123456"}`)
	if _, err := plan.Decode(strings.NewReader(w), limits(t, 1<<10, 1, 6)); err != nil {
		t.Fatalf("a field of exactly the bound was refused: %v", err)
	}
	_, err = plan.Decode(strings.NewReader(w), limits(t, 1<<10, 1, 5))
	wantRule(t, err, schema.RulePlanFieldTooLarge)
	// The field bound counts decoded bytes: "\u00e9" is two.
	e := wrap(`{"op":"write","path":"a","content":"\u00e9\u00e9\u00e9"}`)
	if _, err := plan.Decode(strings.NewReader(e), limits(t, 1<<10, 1, 6)); err != nil {
		t.Fatalf("6 decoded bytes refused under a bound of 6: %v", err)
	}
	_, err = plan.Decode(strings.NewReader(e), limits(t, 1<<10, 1, 5))
	wantRule(t, err, schema.RulePlanFieldTooLarge)
}

type failingReader struct{ err error }

func (r failingReader) Read([]byte) (int, error) { return 0, r.err }

type stuckReader struct{ calls int }

func (r *stuckReader) Read([]byte) (int, error) { r.calls++; return 0, nil }

func TestReaderFailures(t *testing.T) {
	boom := errors.New("pipe broke")
	r := io.MultiReader(strings.NewReader(`{"protocol":1,`), failingReader{boom})
	_, err := plan.Decode(r, plan.DefaultLimits())
	var re *plan.ReadError
	if !errors.As(err, &re) || !errors.Is(err, boom) || re.Offset != 14 {
		t.Fatalf("got %#v, want a ReadError at byte 14 wrapping the reader's error", err)
	}
	if rejection.All(err) != nil {
		t.Fatal("a reader failure is not a plan violation")
	}

	stuck := &stuckReader{}
	_, err = plan.Decode(stuck, plan.DefaultLimits())
	if !errors.Is(err, io.ErrNoProgress) || stuck.calls > 1000 {
		t.Fatalf("a reader that never progresses: %v after %d calls", err, stuck.calls)
	}
	// Data delivered together with io.EOF is used.
	if _, err := plan.Decode(dataWithEOF(`{"protocol":1,"intents":[]}`), plan.DefaultLimits()); err != nil {
		t.Fatal(err)
	}
}

type eofWithData struct{ b []byte }

func dataWithEOF(s string) io.Reader { return &eofWithData{[]byte(s)} }

func (r *eofWithData) Read(p []byte) (int, error) {
	n := copy(p, r.b)
	r.b = r.b[n:]
	if len(r.b) == 0 {
		return n, io.EOF
	}
	return n, nil
}

// TestNeverAsksPastTheBound: the decoder's own requests stop at max+1
// bytes in total, whatever the chunk size.
func TestNeverAsksPastTheBound(t *testing.T) {
	for _, max := range []int64{1, 2, 100, 32 << 10, 32<<10 + 1, 100_000} {
		r := &endless{head: []byte("{"), unit: []byte(" ")}
		_, err := plan.Decode(r, limits(t, max, 1, 1))
		wantRule(t, err, schema.RulePlanTooLarge)
		if r.served != max+1 {
			t.Errorf("max %d: read %d bytes, want exactly %d", max, r.served, max+1)
		}
	}
}

// TestOversizedFieldMemoryIsBounded: refusing an endless field costs memory
// in proportion to the field bound, not to what the input claims or holds.
func TestOversizedFieldMemoryIsBounded(t *testing.T) {
	const field = 1 << 20
	r := &endless{head: []byte(`{"protocol":1,"intents":[{"op":"write","path":"a","content":"`), unit: []byte("x")}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := plan.Decode(r, limits(t, 1<<30, 10, field))
	runtime.ReadMemStats(&after)
	wantRule(t, err, schema.RulePlanFieldTooLarge)
	// Doubling up to the bound allocates at most about 3*field in total
	// for one string, plus the 32 KiB read buffer.
	if got := after.TotalAlloc - before.TotalAlloc; got > 3*field+64<<10 {
		t.Fatalf("allocated %d bytes refusing a field bounded at %d", got, field)
	}
}
