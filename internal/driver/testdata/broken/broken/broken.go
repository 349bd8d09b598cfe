package broken

var Y = x
