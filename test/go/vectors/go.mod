module crdx-go-vectors

go 1.26
