package validate

import "testing"

func TestCVUAndBIC(t *testing.T) {
	for _, ok := range []string{"2850590940090418135201", "0000003100010000000009", "285-0590940090418135201"} {
		if _, err := CVU(ok); err != nil {
			t.Errorf("CVU(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"2850590940090418135202", "2850590840090418135201", "285059094009041813520", "28505909400904181352AB", ""} {
		if _, err := CVU(bad); err == nil {
			t.Errorf("CVU(%q) accepted", bad)
		}
	}
	for _, ok := range []string{"DEUTDEFF", "deutdeff500", "NEDSZAJJXXX"} {
		if _, err := BIC(ok); err != nil {
			t.Errorf("BIC(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"DEUT1EFF", "DEUTDEF", "DEUTDEFF5", "DEUTDEFF50_", "DEUTQQFF", ""} {
		if _, err := BIC(bad); err == nil {
			t.Errorf("BIC(%q) accepted", bad)
		}
	}
}
