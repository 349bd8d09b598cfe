package main

import (
	"context"
	"database/sql"
	"errors"
	"net"

	"example.com/errmap/internal/iso"
	"google.golang.org/grpc"
	hv1 "google.golang.org/grpc/health/grpc_health_v1"
)

var ErrNotFound = errors.New("not found")

type base struct {
	hv1.UnimplementedHealthServer
	db *sql.DB
}

func (b *base) load(ctx context.Context, id string) (string, error) {
	var v string
	err := b.db.QueryRowContext(ctx, "select v from t where id = ?", id).Scan(&v)
	return v, err
}

func main() {
	db, _ := sql.Open("x", "y")
	b := base{db: db}
	s := grpc.NewServer(grpc.UnaryInterceptor(mapInterceptor))
	hv1.RegisterHealthServer(s, &H01{b})
	hv1.RegisterHealthServer(s, &H02{b})
	hv1.RegisterHealthServer(s, &H03{b})
	hv1.RegisterHealthServer(s, &H04{b})
	hv1.RegisterHealthServer(s, &H05{b})
	hv1.RegisterHealthServer(s, &H06{b})
	hv1.RegisterHealthServer(s, &H07{b})
	hv1.RegisterHealthServer(s, &H08{b})
	hv1.RegisterHealthServer(s, &H09{b})
	hv1.RegisterHealthServer(s, &H10{b})
	hv1.RegisterHealthServer(s, &H11{b})
	hv1.RegisterHealthServer(s, &H12{b})
	hv1.RegisterHealthServer(s, &H13{b})
	hv1.RegisterHealthServer(s, &H14{b})
	hv1.RegisterHealthServer(s, &H15{b})
	hv1.RegisterHealthServer(s, &H16{b})
	hv1.RegisterHealthServer(s, &H17{b})
	hv1.RegisterHealthServer(s, &H18{b})
	hv1.RegisterHealthServer(s, &H19{b})
	hv1.RegisterHealthServer(s, &H20{b})
	hv1.RegisterHealthServer(s, &H21{b})
	hv1.RegisterHealthServer(s, &H22{b})
	registerMore(s, b)
	iso.New(s, db)
	lis, _ := net.Listen("tcp", ":0")
	_ = s.Serve(lis)
	go worker(db)
}
