package svc

var s, t = "é日本🙂", bad()

func bad() int { return 1 }
