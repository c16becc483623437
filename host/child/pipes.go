package child

import "os"

// pipes are the three pipes of one child: the child's ends (inR, outW,
// errW), closed by the host right after spawn, and the host's.
type pipes struct {
	inR, inW   *os.File
	outR, outW *os.File
	errR, errW *os.File
}

func openPipes() (pipes, error) {
	var p pipes
	var err error
	if p.inR, p.inW, err = os.Pipe(); err != nil {
		return pipes{}, err
	}
	if p.outR, p.outW, err = os.Pipe(); err != nil {
		p.closeAll()
		return pipes{}, err
	}
	if p.errR, p.errW, err = os.Pipe(); err != nil {
		p.closeAll()
		return pipes{}, err
	}
	return p, nil
}

// closeChildEnds drops the host's copies of the child's ends, so that the
// host sees end-of-file once the child and its descendants are gone.
func (p pipes) closeChildEnds() { closeFiles(p.inR, p.outW, p.errW) }

func (p pipes) closeHostEnds() { closeFiles(p.inW, p.outR, p.errR) }

// closeHostEndsAsync closes the host's ends on a goroutine and reports when
// done. Closing wakes a blocked read or write on a pollable pipe; where a
// platform's Close waits for a pending read instead, the caller's grace
// still bounds how long it waits.
func (p pipes) closeHostEndsAsync() <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.closeHostEnds()
	}()
	return done
}

func (p pipes) closeAll() {
	p.closeChildEnds()
	p.closeHostEnds()
}

func closeFiles(fs ...*os.File) {
	for _, f := range fs {
		if f != nil {
			_ = f.Close()
		}
	}
}
