package vtgate

import "testing"

func TestParse(t *testing.T) {
	for _, sql := range []string{"select a from ks.t where id = :id", "insert into t (a) values (:a)", "update ks.t set a=1", "delete from t where x = :x;"} {
		p, err := parse(sql)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%q -> %+v", sql, *p)
	}
}
