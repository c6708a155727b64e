module certsym

go 1.26

require (
	github.com/aclements/go-z3 v0.0.0-20220809013456-4675d5f90ca5
	github.com/google/gofuzz v1.2.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	gonum.org/v1/gonum v0.17.0
)

require golang.org/x/text v0.23.0 // indirect
