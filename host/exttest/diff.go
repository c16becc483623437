package exttest

import (
	"strings"
)

// maxDiffCells bounds the LCS table (lines of want times lines of got);
// past it the diff falls back to naming the first differing line, so a
// huge golden costs no quadratic memory.
const maxDiffCells = 4 << 20

// Diff is a unified-style line diff from want to got ("-" lines only in
// want, "+" lines only in got, " " context), with a "--- name" / "+++ name"
// header. Lines that are equal far from any change are elided. Empty when
// want and got are equal.
func Diff(wantName, gotName, want, got string) string {
	if want == got {
		return ""
	}
	a, b := splitLines(want), splitLines(got)
	var out strings.Builder
	out.WriteString("--- " + wantName + "\n+++ " + gotName + "\n")
	if len(a)*len(b) > maxDiffCells {
		i := 0
		for i < len(a) && i < len(b) && a[i] == b[i] {
			i++
		}
		out.WriteString("(too large to diff; the first difference is at line " + itoa(i+1) + ")\n")
		return out.String()
	}
	// lcs[i][j] is the length of the longest common subsequence of a[i:], b[j:].
	lcs := make([][]int32, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type line struct {
		mark byte
		text string
	}
	var lines []line
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			lines = append(lines, line{' ', a[i]})
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			lines = append(lines, line{'-', a[i]})
			i++
		default:
			lines = append(lines, line{'+', b[j]})
			j++
		}
	}
	const context = 3
	near := func(k int) bool {
		for d := max(0, k-context); d <= min(len(lines)-1, k+context); d++ {
			if lines[d].mark != ' ' {
				return true
			}
		}
		return false
	}
	elided := false
	for k, l := range lines {
		if l.mark == ' ' && !near(k) {
			if !elided {
				out.WriteString("@@\n")
				elided = true
			}
			continue
		}
		elided = false
		out.WriteByte(l.mark)
		out.WriteString(l.text)
		if !strings.HasSuffix(l.text, "\n") {
			out.WriteString("\n\\ no newline at end\n")
		}
	}
	return out.String()
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var d []byte
	for ; n > 0; n /= 10 {
		d = append([]byte{byte('0' + n%10)}, d...)
	}
	return string(d)
}

// splitLines splits after each newline, without the empty tail a final
// newline leaves.
func splitLines(s string) []string {
	l := strings.SplitAfter(s, "\n")
	if len(l) > 0 && l[len(l)-1] == "" {
		l = l[:len(l)-1]
	}
	return l
}
