module lifecycle

go 1.19
