package schema

import "testing"

func TestParseModeIsPermissionBitsOnly(t *testing.T) {
	for s, want := range map[string]uint32{"0664": 0o664, "664": 0o664, "0755": 0o755, "000": 0, "0777": 0o777} {
		if m, ok := ParseMode(s); !ok || uint32(m) != want {
			t.Errorf("%q: %o %v", s, m, ok)
		}
	}
	for _, s := range []string{"", "4755", "2755", "1777", "1000", "0o644", "0x1a4", "644 ", "+644", "-644", "0888", "07777", "10644", "rw-r--r--", "420"[:2]} {
		if _, ok := ParseMode(s); ok {
			t.Errorf("%q accepted", s)
		}
	}
	for _, c := range []struct {
		w    Write
		want uint32
	}{{Write{}, 0o644}, {Write{Executable: true}, 0o755}, {Write{Mode: "0664"}, 0o664}, {Write{Mode: "0750", Executable: true}, 0o750}} {
		if got := c.w.FileMode(); uint32(got) != c.want {
			t.Errorf("%+v: %o", c.w, got)
		}
	}
}
