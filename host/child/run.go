package child

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/lola-pm/lola/host/plan"
	"github.com/lola-pm/lola/host/rejection"
	"github.com/lola-pm/lola/schema"
)

// Run spawns the child s describes, feeds it s's stdin, and returns how it
// ended. It returns within the deadline plus the grace of spawn whatever
// the child does (see the package documentation for the guarantees). A
// canceled ctx kills the child like the deadline does, with OutcomeCanceled.
// Run never panics on a child's behaviour and is safe for concurrent use.
func Run(ctx context.Context, s Spec) Result {
	began := time.Now()
	r := s.run(ctx)
	r.Elapsed = time.Since(began)
	return r
}

type waitResult struct {
	state *os.ProcessState
	err   error
}

type stdoutResult struct {
	plan *plan.Plan
	err  error
}

// running is one child between spawn and return.
type running struct {
	spec   Spec
	group  *group
	pipes  pipes
	stderr *capture
	stdout *capture // StdoutDiagnostics only

	bound   time.Time         // spawn + deadline + grace: Run returns before it
	exited  chan waitResult   // the direct child was reaped
	outDone chan stdoutResult // the stdout reader finished (buffered, one value)
	outEnd  chan struct{}     // closed when the stdout goroutine returns
	errEnd  chan struct{}     // closed when the stderr goroutine returns
}

func (s Spec) run(ctx context.Context) Result {
	if s.path == "" {
		return Result{Outcome: OutcomeStartFailed, ExitStatus: -1, Err: errors.New("child: spec not built by NewSpec")}
	}
	if err := ctx.Err(); err != nil {
		return Result{Outcome: OutcomeCanceled, ExitStatus: -1, Err: errors.New("canceled before start")}
	}
	p, err := openPipes()
	if err != nil {
		return Result{Outcome: OutcomeStartFailed, ExitStatus: -1, Err: fmt.Errorf("start %s: pipes: %w", filepath.Base(s.path), unwrapPath(err))}
	}
	g, err := newGroup(s.memoryMax)
	if err != nil {
		p.closeAll()
		return Result{Outcome: OutcomeStartFailed, ExitStatus: -1, Err: s.redact(err)}
	}
	cmd := &exec.Cmd{
		Path:   s.path,
		Args:   append([]string{s.path}, s.args...),
		Env:    s.env,
		Dir:    s.dir,
		Stdin:  p.inR,
		Stdout: p.outW,
		Stderr: p.errW,
	}
	// The deadline starts at spawn: it has to cover everything the child
	// does, starting itself included.
	deadline := time.NewTimer(s.deadline)
	defer deadline.Stop()
	bound := time.Now().Add(s.deadline + s.grace)
	err = g.start(cmd)
	p.closeChildEnds()
	if err != nil {
		p.closeHostEnds()
		g.release(nil)
		if s.dir != "" && !isDir(s.dir) {
			// exec reports a failed chdir under the executable's name.
			err = fmt.Errorf("working directory %s: %w", filepath.Base(s.dir), fs.ErrNotExist)
		}
		return Result{Outcome: OutcomeStartFailed, ExitStatus: -1, Err: s.redact(err)}
	}

	r := &running{
		spec:    s,
		bound:   bound,
		group:   g,
		pipes:   p,
		stderr:  newCapture(s.stderrCap),
		exited:  make(chan waitResult, 1),
		outDone: make(chan stdoutResult, 1),
		outEnd:  make(chan struct{}),
		errEnd:  make(chan struct{}),
	}
	go func() {
		defer close(r.errEnd)
		r.stderr.drain(p.errR)
	}()
	if s.mode == StdoutPlan {
		go func() {
			defer close(r.outEnd)
			r.outDone <- decodeStdout(p.outR, s.limits)
		}()
	} else {
		r.stdout = newCapture(s.stdoutCap)
		go func() {
			defer close(r.outEnd)
			r.stdout.drain(p.outR)
			r.outDone <- stdoutResult{}
		}()
	}
	// The request is written from its own goroutine: a child that never
	// reads would otherwise block the host on a full pipe. Closing inW (on
	// kill or cleanup) unblocks the write.
	go func() {
		_, _ = p.inW.Write(s.stdin)
		_ = p.inW.Close()
	}()
	go func() {
		err := cmd.Wait()
		g.waited() // after the reap: the pid is no longer a direct child
		r.exited <- waitResult{state: cmd.ProcessState, err: err}
	}()

	var (
		w   *waitResult
		out *stdoutResult
	)
	for w == nil || out == nil {
		select {
		case x := <-r.exited:
			w = &x
		case x := <-r.outDone:
			out = &x
			if isStdoutBound(x.err) {
				return r.kill(OutcomeKilledStdoutBound, x.err, w)
			}
		case <-deadline.C:
			return r.kill(OutcomeKilledDeadline, r.deadlineErr(w), w)
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return r.kill(OutcomeKilledDeadline, errors.New("the caller's deadline passed"), w)
			}
			return r.kill(OutcomeCanceled, errors.New("the run was canceled"), w)
		}
	}

	// The child has exited and stdout is done. Stderr normally ends with
	// it; a descendant still holding it gets the grace, not the deadline.
	grace, stop := r.graceWindow()
	defer stop()
	select {
	case <-r.errEnd:
	case <-grace:
	case <-deadline.C:
	case <-ctx.Done():
	}
	r.cleanup(grace)
	return r.result(w, out)
}

// result classifies a run in which the child exited and stdout finished.
// A non-zero status wins over a malformed plan: a crash that left half a
// plan is a crash.
func (r *running) result(w *waitResult, out *stdoutResult) Result {
	res := r.base()
	res.Reaped = true
	switch {
	case w.state == nil:
		res.Outcome, res.Err = OutcomeExitNonZero, fmt.Errorf("waiting for the extension failed: %w", r.spec.redact(w.err))
	case !w.state.Success():
		res.ExitStatus = w.state.ExitCode()
		res.Outcome, res.Err = OutcomeExitNonZero, errors.New(w.state.String())
	case r.spec.mode == StdoutDiagnostics:
		res.ExitStatus = 0
		res.Outcome = OutcomeCompleted
	case out.err != nil:
		res.ExitStatus = 0
		res.Outcome, res.Err = OutcomePlanRefused, asViolation(out.err)
	default:
		res.ExitStatus = 0
		res.Outcome, res.Plan = OutcomePlanReceived, out.plan
	}
	return res
}

// kill ends a run early: signal the group, close the host's pipe ends, reap
// the direct child, all within one grace period, and never wait for
// end-of-file, which a descendant outside the group may hold off forever.
func (r *running) kill(o Outcome, why error, w *waitResult) Result {
	r.group.kill()
	grace, stop := r.graceWindow()
	defer stop()
	closed := r.pipes.closeHostEndsAsync()
	if w == nil {
		select {
		case x := <-r.exited:
			w = &x
		case <-grace:
		}
	}
	waitUntil(grace, closed, r.outEnd, r.errEnd)
	r.group.release(grace)
	res := r.base()
	res.Outcome, res.Err = o, why
	if w != nil {
		res.Reaped = true
		if w.state != nil {
			res.ExitStatus = w.state.ExitCode()
		}
	}
	return res
}

// cleanup ends a run that finished by itself: kill what is left of the
// group (descendants that kept running), close the host's ends, all within
// the grace that is already running.
func (r *running) cleanup(grace <-chan struct{}) {
	r.group.kill()
	closed := r.pipes.closeHostEndsAsync()
	waitUntil(grace, closed, r.outEnd, r.errEnd)
	r.group.release(grace)
}

func (r *running) base() Result {
	res := Result{ExitStatus: -1, Containment: r.group.containment(), MemoryMax: r.group.memoryMax()}
	res.Diagnostics, res.DiagnosticsTruncated = r.stderr.snapshot()
	if r.stdout != nil {
		res.Output, res.OutputTruncated = r.stdout.snapshot()
	}
	return res
}

func (r *running) deadlineErr(w *waitResult) error {
	if w != nil && w.state != nil {
		// The child is gone but stdout never ended: something it started
		// holds the pipe open.
		return fmt.Errorf("the %s deadline passed; the extension had exited (%s) but a descendant still held its stdout open", r.spec.deadline, w.state)
	}
	return fmt.Errorf("the %s deadline passed", r.spec.deadline)
}

// graceWindow returns a channel closed once the grace has passed, and a
// func that releases its timer. A closed channel, unlike a timer's, can be
// waited on by every step of a cleanup in turn. The window ends a margin
// before the run's bound (spawn + deadline + grace), never after it: a
// kill on the deadline starts its grace a little after spawn + deadline,
// and the steps that follow the window (releasing the containment when a
// process will not die, building the result) need a moment too.
func (r *running) graceWindow() (<-chan struct{}, func()) {
	margin := min(r.spec.grace/10, 10*time.Millisecond)
	end := time.Now().Add(r.spec.grace)
	if end.After(r.bound) {
		end = r.bound
	}
	c := make(chan struct{})
	t := time.AfterFunc(time.Until(end.Add(-margin)), func() { close(c) })
	return c, func() { t.Stop() }
}

// waitUntil waits for every channel to close, or for stop.
func waitUntil(stop <-chan struct{}, chans ...<-chan struct{}) {
	for _, c := range chans {
		select {
		case <-c:
		case <-stop:
			return
		}
	}
}

// decodeStdout decodes the plan on r, then makes sure nothing but JSON
// whitespace follows it within the byte bound. On a refusal that is not a
// bound it keeps draining r, so the child is never blocked and its exit
// status is still collected.
func decodeStdout(r io.Reader, l plan.Limits) stdoutResult {
	cr := &countingReader{r: r}
	p, err := plan.Decode(cr, l)
	if err == nil {
		err = checkTrailing(cr, l)
	}
	if err != nil {
		if !isStdoutBound(err) {
			_, _ = io.Copy(io.Discard, r)
		}
		return stdoutResult{err: err}
	}
	return stdoutResult{plan: p}
}

// checkTrailing reads to end-of-file after a decoded plan. plan.Decode
// refuses trailing data itself; this holds the line whatever the decoder
// leaves unread, and counts those bytes against the plan's byte bound.
func checkTrailing(cr *countingReader, l plan.Limits) error {
	buf := make([]byte, 4096)
	for {
		n, err := cr.Read(buf)
		if cr.n > l.MaxBytes() {
			return rejection.New(schema.RulePlanTooLarge, fmt.Sprintf("plan exceeds %d bytes", l.MaxBytes()))
		}
		for _, c := range buf[:n] {
			if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
				return rejection.New(schema.RulePlanMalformed, "trailing data after the plan")
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// isStdoutBound reports whether err is one of the three stdout bounds, the
// refusals on which the host kills the child at once.
func isStdoutBound(err error) bool {
	return err != nil && (errors.Is(err, rejection.Rule(schema.RulePlanTooLarge)) ||
		errors.Is(err, rejection.Rule(schema.RulePlanTooManyIntents)) ||
		errors.Is(err, rejection.Rule(schema.RulePlanFieldTooLarge)))
}

// asViolation keeps a decoder's violation and turns anything else (a read
// error) into plan.malformed, so a malformed outcome always carries a rule.
func asViolation(err error) error {
	if len(rejection.All(err)) > 0 {
		return err
	}
	return rejection.New(schema.RulePlanMalformed, "reading the plan failed")
}

// redact renders a start error without host absolute paths: the path and
// working directory are reduced to their base names.
func (s Spec) redact(err error) error {
	if err == nil {
		return nil
	}
	msg := unwrapPath(err).Error()
	if s.dir != "" {
		msg = strings.ReplaceAll(msg, s.dir, filepath.Base(s.dir))
	}
	msg = strings.ReplaceAll(msg, s.path, filepath.Base(s.path))
	return fmt.Errorf("start %s: %s", filepath.Base(s.path), msg)
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// unwrapPath drops the path of an *fs.PathError, keeping its cause.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Op, pe.Err)
	}
	return err
}
