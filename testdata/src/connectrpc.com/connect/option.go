package connect

// A ClientOption configures a Client.
type ClientOption interface {
	applyToClient(*clientConfig)
}

// A HandlerOption configures a Handler.
type HandlerOption interface {
	applyToHandler(*handlerConfig)
}

// Option implements both ClientOption and HandlerOption.
type Option interface {
	ClientOption
	HandlerOption
}

type clientConfig struct {
	Interceptors []Interceptor
}

type handlerConfig struct {
	Interceptors []Interceptor
}

type optionFunc struct {
	client  func(*clientConfig)
	handler func(*handlerConfig)
}

func (o optionFunc) applyToClient(c *clientConfig) {
	if o.client != nil {
		o.client(c)
	}
}

func (o optionFunc) applyToHandler(h *handlerConfig) {
	if o.handler != nil {
		o.handler(h)
	}
}

// WithClientOptions composes multiple ClientOptions into one.
func WithClientOptions(options ...ClientOption) ClientOption {
	return optionFunc{client: func(c *clientConfig) {
		for _, o := range options {
			o.applyToClient(c)
		}
	}}
}

// WithHandlerOptions composes multiple HandlerOptions into one.
func WithHandlerOptions(options ...HandlerOption) HandlerOption {
	return optionFunc{handler: func(h *handlerConfig) {
		for _, o := range options {
			o.applyToHandler(h)
		}
	}}
}

// WithGRPC configures clients to use the HTTP/2 gRPC protocol.
func WithGRPC() ClientOption { return optionFunc{} }

// WithGRPCWeb configures clients to use the gRPC-Web protocol.
func WithGRPCWeb() ClientOption { return optionFunc{} }

// WithSchema provides a parsed representation of the schema for an RPC to a
// client or handler.
func WithSchema(schema any) Option { return optionFunc{} }

// WithIdempotency declares the idempotency of the procedure.
func WithIdempotency(idempotencyLevel IdempotencyLevel) Option { return optionFunc{} }

// WithInterceptors configures a client or handler's interceptor stack.
func WithInterceptors(interceptors ...Interceptor) Option {
	return optionFunc{
		client:  func(c *clientConfig) { c.Interceptors = append(c.Interceptors, interceptors...) },
		handler: func(h *handlerConfig) { h.Interceptors = append(h.Interceptors, interceptors...) },
	}
}

// WithOptions composes multiple Options into one.
func WithOptions(options ...Option) Option {
	return optionFunc{
		client: func(c *clientConfig) {
			for _, o := range options {
				o.applyToClient(c)
			}
		},
		handler: func(h *handlerConfig) {
			for _, o := range options {
				o.applyToHandler(h)
			}
		},
	}
}
