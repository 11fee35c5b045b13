package main

import (
	"encoding/json"
	"net/http"
	"sort"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	extensionsapiserver "k8s.io/apiextensions-apiserver/pkg/apiserver"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/version"
)

// installRootDiscovery serves GET /apis, which a standalone
// apiextensions-apiserver leaves to the kube-aggregator in a real cluster and
// so answers 404 on its own. Without it kubectl cannot discover anything.
//
//   - aggregated discovery (Accept: ...;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList),
//     which kubectl uses, comes from the server's own aggregated discovery
//     manager, which the CRD discovery controller keeps up to date;
//   - the legacy APIGroupList lists apiextensions.k8s.io first and then the
//     groups of established CRDs by name, versions in Kubernetes version order,
//     as the aggregator orders them.
func installRootDiscovery(s *extensionsapiserver.CustomResourceDefinitions) {
	gs := s.GenericAPIServer
	if gs.AggregatedDiscoveryGroupManager == nil {
		return
	}
	crds := s.Informers.Apiextensions().V1().CustomResourceDefinitions().Lister()
	legacy := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		list := metav1.APIGroupList{
			TypeMeta: metav1.TypeMeta{Kind: "APIGroupList", APIVersion: "v1"},
			Groups: []metav1.APIGroup{{
				Name:             apiextensionsv1.GroupName,
				Versions:         []metav1.GroupVersionForDiscovery{{GroupVersion: apiextensionsv1.SchemeGroupVersion.String(), Version: "v1"}},
				PreferredVersion: metav1.GroupVersionForDiscovery{GroupVersion: apiextensionsv1.SchemeGroupVersion.String(), Version: "v1"},
			}},
		}
		all, err := crds.List(labels.Everything())
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		versionsByGroup := map[string]map[string]bool{}
		for _, crd := range all {
			if !isEstablished(crd) {
				continue
			}
			for _, v := range crd.Spec.Versions {
				if !v.Served {
					continue
				}
				if versionsByGroup[crd.Spec.Group] == nil {
					versionsByGroup[crd.Spec.Group] = map[string]bool{}
				}
				versionsByGroup[crd.Spec.Group][v.Name] = true
			}
		}
		groups := make([]string, 0, len(versionsByGroup))
		for g := range versionsByGroup {
			groups = append(groups, g)
		}
		sort.Strings(groups)
		for _, g := range groups {
			versions := make([]string, 0, len(versionsByGroup[g]))
			for v := range versionsByGroup[g] {
				versions = append(versions, v)
			}
			sort.Slice(versions, func(i, j int) bool {
				return version.CompareKubeAwareVersionStrings(versions[i], versions[j]) > 0
			})
			group := metav1.APIGroup{Name: g}
			for _, v := range versions {
				group.Versions = append(group.Versions, metav1.GroupVersionForDiscovery{GroupVersion: g + "/" + v, Version: v})
			}
			group.PreferredVersion = group.Versions[0]
			list.Groups = append(list.Groups, group)
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(list)
	})
	wrapped := wrapRootDiscovery(legacy, gs.AggregatedDiscoveryGroupManager)
	gs.Handler.GoRestfulContainer.Add(wrapped.GenerateWebService("/apis", metav1.APIGroupList{}))
}

func isEstablished(crd *apiextensionsv1.CustomResourceDefinition) bool {
	for _, c := range crd.Status.Conditions {
		if c.Type == apiextensionsv1.Established {
			return c.Status == apiextensionsv1.ConditionTrue
		}
	}
	return false
}
