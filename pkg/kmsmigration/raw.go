package kmsmigration

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"

	"google.golang.org/protobuf/encoding/protowire"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
)

// The raw protobuf path. A rewrite sends the object back exactly as it was listed, so the migrator has no use
// for the object beyond its namespace, name and resourceVersion. For the resources kube-apiserver itself serves
// (every group of client-go's scheme) it therefore LISTs and PUTs in protobuf and never decodes an object: the
// items of a page are sliced out of the LIST response and each one is PUT inside the same envelope the
// apiserver's protobuf serializer reads, with the resourceVersion it was listed with as the precondition. The
// apiserver decodes protobuf at a fraction of the cost of JSON, and the client decodes nothing; what reaches
// etcd is the same as with the dynamic client's JSON. Custom resources, which the apiserver serves in JSON
// only, and every resource when Options.RESTConfig is not set, take the dynamic client.

const protobufContentType = "application/vnd.kubernetes.protobuf"

// protobufMagic starts every protobuf-encoded Kubernetes object (k8s.io/apimachinery's protobuf serializer).
var protobufMagic = []byte{0x6b, 0x38, 0x73, 0x00}

// Field numbers of k8s.io/apimachinery's generated.proto and of every generated List message.
const (
	listMetaField       = 1 // List.metadata
	listItemsField      = 2 // List.items
	objectMetaField     = 1 // <Object>.metadata
	metaNameField       = 1 // ObjectMeta.name
	metaNamespaceField  = 3 // ObjectMeta.namespace
	metaResourceVersion = 6 // ObjectMeta.resourceVersion
)

// rawClient lists and rewrites one built-in resource in protobuf.
type rawClient struct {
	client     rest.Interface
	gvk        schema.GroupVersionKind
	resource   string
	namespaced bool
}

// newRawClient returns a rawClient for gvr, or nil when gvk is not one kube-apiserver serves in protobuf.
func newRawClient(config *rest.Config, gvr schema.GroupVersionResource, gvk schema.GroupVersionKind, namespaced bool) (*rawClient, error) {
	if config == nil || !scheme.Scheme.Recognizes(gvk) {
		return nil, nil
	}
	c := rest.CopyConfig(config)
	c.GroupVersion = &schema.GroupVersion{Group: gvr.Group, Version: gvr.Version}
	c.APIPath = "/apis"
	if gvr.Group == "" {
		c.APIPath = "/api"
	}
	c.ContentType = protobufContentType
	// The migrator's own token bucket (Options.QPS) sets the rate: client-go's default of 5 QPS for a config
	// without one would throttle the migration to a crawl. A RateLimiter the caller put in the config is its
	// own throttle of the migration's client, as on Options.Dynamic, and is kept.
	c.QPS, c.Burst = -1, 0
	c.AcceptContentTypes = protobufContentType
	// Errors come back as a protobuf Status, which client-go's scheme decodes.
	c.NegotiatedSerializer = scheme.Codecs.WithoutConversion()
	client, err := rest.RESTClientFor(c)
	if err != nil {
		return nil, err
	}
	return &rawClient{client: client, gvk: gvk, resource: gvr.Resource, namespaced: namespaced}, nil
}

// rawObject is one listed object: its protobuf message as the LIST returned it, and the metadata a rewrite
// needs.
type rawObject struct {
	namespace, name, resourceVersion string
	data                             []byte
}

func (o *rawObject) GetNamespace() string       { return o.namespace }
func (o *rawObject) GetName() string            { return o.name }
func (o *rawObject) GetResourceVersion() string { return o.resourceVersion }

// GetObjectKind and DeepCopyObject make a rawObject a runtime.Object, as client-go's pager hands out items.
func (o *rawObject) GetObjectKind() schema.ObjectKind { return schema.EmptyObjectKind }
func (o *rawObject) DeepCopyObject() runtime.Object   { c := *o; return &c }

// rawList is one LIST page: a runtime.Object and a metav1.ListMetaAccessor for client-go's pager, which walks
// Items.
type rawList struct {
	metav1.ListMeta
	Items []*rawObject
}

func (l *rawList) GetObjectKind() schema.ObjectKind  { return schema.EmptyObjectKind }
func (l *rawList) DeepCopyObject() runtime.Object    { c := *l; return &c }
func (l *rawList) GetListMeta() metav1.ListInterface { return &l.ListMeta }

// list lists one page of the resource across all namespaces.
func (c *rawClient) list(ctx context.Context, opts metav1.ListOptions) (*rawList, error) {
	req := c.client.Get().Resource(c.resource).Param("limit", strconv.FormatInt(opts.Limit, 10))
	if opts.Continue != "" {
		req = req.Param("continue", opts.Continue)
	}
	var contentType string
	body, err := req.Do(ctx).ContentType(&contentType).Raw()
	if err != nil {
		return nil, err
	}
	raw, err := unwrap(body, contentType)
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", c.resource, err)
	}
	list := &rawList{}
	for len(raw) > 0 {
		field, value, n, err := nextBytesField(raw)
		if err != nil {
			return nil, fmt.Errorf("listing %s: %w", c.resource, err)
		}
		raw = raw[n:]
		switch field {
		case listMetaField:
			if err := list.ListMeta.Unmarshal(value); err != nil {
				return nil, fmt.Errorf("listing %s: list metadata: %w", c.resource, err)
			}
		case listItemsField:
			obj, err := parseObject(value)
			if err != nil {
				return nil, fmt.Errorf("listing %s: %w", c.resource, err)
			}
			list.Items = append(list.Items, obj)
		}
	}
	return list, nil
}

// put stores obj again, unchanged, with its resourceVersion as the precondition, and returns the
// resourceVersion it has now.
func (c *rawClient) put(ctx context.Context, obj *rawObject) (string, error) {
	envelope := runtime.Unknown{
		TypeMeta: runtime.TypeMeta{APIVersion: c.gvk.GroupVersion().String(), Kind: c.gvk.Kind},
		Raw:      obj.data,
	}
	encoded, err := envelope.Marshal()
	if err != nil {
		return "", err
	}
	body := make([]byte, 0, len(protobufMagic)+len(encoded))
	body = append(append(body, protobufMagic...), encoded...)
	req := c.client.Put().Resource(c.resource).Name(obj.name).Body(body).SetHeader("Content-Type", protobufContentType)
	if c.namespaced {
		req = req.Namespace(obj.namespace)
	}
	var contentType string
	resp, err := req.Do(ctx).ContentType(&contentType).Raw()
	if err != nil {
		return "", err
	}
	raw, err := unwrap(resp, contentType)
	if err != nil {
		return "", fmt.Errorf("rewriting %s %s/%s: %w", c.resource, obj.namespace, obj.name, err)
	}
	updated, err := parseObject(raw)
	if err != nil {
		return "", fmt.Errorf("rewriting %s %s/%s: %w", c.resource, obj.namespace, obj.name, err)
	}
	return updated.resourceVersion, nil
}

// unwrap returns the message inside a protobuf response's envelope.
func unwrap(body []byte, contentType string) ([]byte, error) {
	if mediaType, _, _ := bytes.Cut([]byte(contentType), []byte(";")); string(mediaType) != protobufContentType {
		return nil, fmt.Errorf("the apiserver answered in %q, not protobuf", contentType)
	}
	if !bytes.HasPrefix(body, protobufMagic) {
		return nil, errors.New("the protobuf response does not start with the Kubernetes magic number")
	}
	var envelope runtime.Unknown
	if err := envelope.Unmarshal(body[len(protobufMagic):]); err != nil {
		return nil, fmt.Errorf("decoding the protobuf envelope: %w", err)
	}
	if envelope.ContentEncoding != "" {
		return nil, fmt.Errorf("unsupported content encoding %q", envelope.ContentEncoding)
	}
	return envelope.Raw, nil
}

// parseObject reads the namespace, name and resourceVersion of an object's protobuf message; data keeps
// referring to message.
func parseObject(message []byte) (*rawObject, error) {
	obj := &rawObject{data: message}
	for rest := message; len(rest) > 0; {
		field, value, n, err := nextBytesField(rest)
		if err != nil {
			return nil, err
		}
		rest = rest[n:]
		if field != objectMetaField {
			continue
		}
		for meta := value; len(meta) > 0; {
			f, v, n, err := nextBytesField(meta)
			if err != nil {
				return nil, fmt.Errorf("object metadata: %w", err)
			}
			meta = meta[n:]
			switch f {
			case metaNameField:
				obj.name = string(v)
			case metaNamespaceField:
				obj.namespace = string(v)
			case metaResourceVersion:
				obj.resourceVersion = string(v)
			}
		}
	}
	if obj.name == "" || obj.resourceVersion == "" {
		return nil, errors.New("an object without a name or resourceVersion in its protobuf metadata")
	}
	return obj, nil
}

// nextBytesField reads the next field of a protobuf message: its number, and its value when it is
// length-delimited (nil otherwise), and how many bytes it took.
func nextBytesField(b []byte) (protowire.Number, []byte, int, error) {
	num, typ, n := protowire.ConsumeTag(b)
	if n < 0 {
		return 0, nil, 0, fmt.Errorf("malformed protobuf tag: %w", protowire.ParseError(n))
	}
	if typ == protowire.BytesType {
		v, m := protowire.ConsumeBytes(b[n:])
		if m < 0 {
			return 0, nil, 0, fmt.Errorf("malformed protobuf field %d: %w", num, protowire.ParseError(m))
		}
		return num, v, n + m, nil
	}
	m := protowire.ConsumeFieldValue(num, typ, b[n:])
	if m < 0 {
		return 0, nil, 0, fmt.Errorf("malformed protobuf field %d: %w", num, protowire.ParseError(m))
	}
	return num, nil, n + m, nil
}
