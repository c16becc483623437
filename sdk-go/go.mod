module github.com/lola-pm/lola/sdk-go

go 1.26

require github.com/lola-pm/lola/schema v0.0.0

replace github.com/lola-pm/lola/schema => ../schema
