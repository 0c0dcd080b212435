module cardapiclient

go 1.19
