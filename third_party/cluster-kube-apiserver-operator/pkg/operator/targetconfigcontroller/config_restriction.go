package targetconfigcontroller

func RemoveConfig(dst, src interface{}, currentPath string) (interface{}, error) {
	return dst, nil
}
