package version

import "testing"

func BenchmarkSpecAdmits(b *testing.B) {
	s, err := ParseSpec(">=1.2.0,<2.0,!=1.5.*")
	if err != nil {
		b.Fatal(err)
	}
	v, _ := Parse("1.9.3")
	b.ReportAllocs()
	for b.Loop() {
		if !s.Admits(v) {
			b.Fatal("not admitted")
		}
	}
}

func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("1.10.3rc2.post1.dev4"); err != nil {
			b.Fatal(err)
		}
	}
}
