module lolatest/guest

go 1.26
