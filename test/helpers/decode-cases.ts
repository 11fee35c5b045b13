/**
 * CRDs the server's decoder answers in particular ways (type errors in Go's words, which of several
 * errors it names, what items / additionalProperties and the like drop without a word), and the
 * answers a v1.37 server gave to kubectl create --dry-run=server of each (fieldValidation=Strict).
 * test/unit/decode-texts.test.ts compares lint with the recorded answers; the field-validation
 * conformance suite replays the CRDs against the real server.
 */

export interface DecodeCase {
  readonly name: string;
  readonly text: string;
  /** 400: the message; 422: the one cause as kubectl prints it; 201: nothing. */
  readonly server: { readonly status: 201 } | { readonly status: 400; readonly message: string } | { readonly status: 422; readonly cause: string };
}

interface Parts {
  readonly scope?: string;
  readonly names?: string;
  readonly conv?: string;
  readonly served?: string;
  readonly cols?: string;
  readonly props?: string;
}

const crd = (p: Parts): string => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: ${p.scope ?? 'Namespaced'}
  names: ${p.names ?? '{plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}'}
${p.conv ?? ''}  versions:
    - name: v1
      served: ${p.served ?? 'true'}
      storage: true
${p.cols ?? ''}      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
${p.props ?? '                x: {type: string}\n'}`;

const HANDLED = "CustomResourceDefinition in version \"v1\" cannot be handled as a CustomResourceDefinition: ";

export const decodeCases: readonly DecodeCase[] = [
  { name: "items a string (dropped: 422 Required)", text: crd({ props: "                a: {type: array, items: \"foo\"}\n" }), server: { status: 422, cause: "spec.validation.openAPIV3Schema.properties[spec].properties[a].items: Required value: must be specified" } },
  { name: "items a number (dropped)", text: crd({ props: "                a: {type: array, items: 5}\n" }), server: { status: 422, cause: "spec.validation.openAPIV3Schema.properties[spec].properties[a].items: Required value: must be specified" } },
  { name: "additionalProperties a string", text: crd({ props: "                a: {type: object, additionalProperties: \"foo\"}\n" }), server: { status: 400, message: HANDLED + "boolean or JSON schema expected" } },
  { name: "type error below items", text: crd({ props: "                a: {type: array, items: {type: string, maxLength: \"5\"}}\n" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.properties.items.maxLength of type int64" } },
  { name: "type error below additionalProperties", text: crd({ props: "                a: {type: object, additionalProperties: {type: string, maxLength: \"5\"}}\n" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.properties.additionalProperties.maxLength of type int64" } },
  { name: "type error in a property", text: crd({ props: "                a: {type: string, maxLength: \"5\"}\n" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.properties.maxLength of type int64" } },
  { name: "type error in a property below items", text: crd({ props: "                a: {type: array, items: {type: object, properties: {b: {type: string, maxLength: \"5\"}}}}\n" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.properties.items.properties.maxLength of type int64" } },
  { name: "dependencies value a number (dropped; 422 Forbidden)", text: crd({ props: "                a: {type: object, dependencies: {b: 5}}\n" }), server: { status: 422, cause: "spec.validation.openAPIV3Schema.properties[spec].properties[a].dependencies: Forbidden: dependencies is not supported" } },
  { name: "a type error, then one below items: the later one", text: crd({ props: "                a: {type: string, maxLength: \"5\"}\n                b: {type: array, items: {type: string, maxLength: \"x\"}}\n" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.properties.items.maxLength of type int64" } },
  { name: "served a string, shortNames a number", text: crd({ served: "\"true\"", names: "{plural: widgets, singular: widget, kind: Widget, listKind: WidgetList, shortNames: [5]}" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal number into Go struct field CustomResourceDefinitionNames.spec.names.shortNames of type string" } },
  { name: "a fraction for an int64", text: crd({ props: "                a: {type: string, maxLength: 1.5}\n" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal number 1.5 into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.properties.maxLength of type int64" } },
  { name: "an int32 out of range", text: crd({ cols: "      additionalPrinterColumns:\n        - {name: A, type: string, jsonPath: .spec.x, priority: 3000000000}\n" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal number 3000000000 into Go struct field CustomResourceColumnDefinition.spec.versions.additionalPrinterColumns.priority of type int32" } },
  { name: "caBundle not base64", text: crd({ conv: "  conversion:\n    strategy: Webhook\n    webhook:\n      conversionReviewVersions: [v1]\n      clientConfig: {url: \"https://x.example.com\", caBundle: \"abc!\"}\n" }), server: { status: 400, message: HANDLED + "illegal base64 data at input byte 3" } },
  { name: "type error below the list form of items", text: crd({ props: "                a: {type: array, items: [{type: string, maxLength: \"5\"}]}\n" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.properties.items.maxLength of type int64" } },
  { name: "a number in the list form of items", text: crd({ props: "                a: {type: array, items: [5]}\n" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal number into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.properties.items of type v1.JSONSchemaProps" } },
  { name: "a rule a number below items", text: crd({ props: "                a: {type: array, items: {type: string, x-kubernetes-validations: [{rule: 5}]}}\n" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal number into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.properties.items.x-kubernetes-validations.rule of type string" } },
  { name: "names a string", text: crd({ names: "\"x\"" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal string into Go struct field CustomResourceDefinitionSpec.spec.names of type v1.CustomResourceDefinitionNames" } },
  { name: "enum a string", text: crd({ props: "                a: {type: string, enum: \"x\"}\n" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.properties.enum of type []v1.JSON" } },
  { name: "scope a number", text: crd({ scope: "5" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal number into Go struct field CustomResourceDefinitionSpec.spec.scope of type v1.ResourceScope" } },
  { name: "two type errors: the first", text: crd({ props: "                a: {type: string, minLength: \"x\"}\n                b: {type: string, maxLength: \"y\"}\n" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.properties.minLength of type int64" } },
  { name: "an int64 written 1e21", text: crd({ props: "                a: {type: string, maxLength: 1e21}\n" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal number 1e+21 into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.properties.maxLength of type int64" } },
  { name: "an int64 written 5.0 (accepted)", text: crd({ props: "                a: {type: string, maxLength: 5.0}\n" }), server: { status: 201 } },
  { name: "below additionalProperties before a later sibling field", text: crd({ props: "                a: {type: object, additionalProperties: {type: string, maxLength: \"x\"}, maxProperties: \"y\"}\n                b: {type: string, maxLength: \"z\"}\n" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.properties.additionalProperties.maxLength of type int64" } },
  { name: "a bool a string below items", text: crd({ props: "                a: {type: array, items: {type: string, x-kubernetes-validations: [{rule: \"true\", optionalOldSelf: \"x\"}]}}\n" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.properties.items.x-kubernetes-validations.optionalOldSelf of type bool" } },
  { name: "maxItems a string beside items", text: crd({ props: "                a: {type: array, maxItems: \"q\", items: {type: string, maxLength: \"x\"}}\n" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.properties.items.maxLength of type int64" } },
  { name: "unknown fields below items (dropped)", text: crd({ props: "                a: {type: array, items: {type: string, maxlength: 5, x-kubernetes-validatons: [{rule: \"false\"}]}}\n" }), server: { status: 201 } },
  { name: "an unknown field in a rule below additionalProperties (dropped)", text: crd({ props: "                a: {type: object, additionalProperties: {type: string, x-kubernetes-validations: [{rule: \"true\", messsage: m}]}}\n" }), server: { status: 201 } },
  { name: "a bool where a string belongs", text: crd({ props: "                a: {type: string, description: true}\n" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal bool into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.properties.description of type string" } },
  { name: "a bool where properties belong", text: crd({ props: "                a: {type: object, properties: true}\n" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal bool into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.properties.properties of type map[string]v1.JSONSchemaProps" } },
  { name: "a rule a number", text: crd({ props: "                a: {type: string, x-kubernetes-validations: [{rule: 5}]}\n" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal number into Go struct field ValidationRule.spec.versions.schema.openAPIV3Schema.properties.properties.x-kubernetes-validations.rule of type string" } },
  { name: "a reason a number", text: crd({ props: "                a: {type: string, x-kubernetes-validations: [{rule: \"true\", reason: 5}]}\n" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal number into Go struct field ValidationRule.spec.versions.schema.openAPIV3Schema.properties.properties.x-kubernetes-validations.reason of type v1.FieldValueErrorReason" } },
  { name: "x-kubernetes-list-type a number", text: crd({ props: "                a: {type: array, items: {type: string}, x-kubernetes-list-type: 5}\n" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal number into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.properties.x-kubernetes-list-type of type string" } },
  { name: "$schema a number", text: crd({ props: "                a: {type: string, $schema: 5}\n" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal number into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.properties.$schema of type v1.JSONSchemaURL" } },
  { name: "externalDocs.url a number", text: crd({ props: "                a: {type: string, externalDocs: {url: 5}}\n" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal number into Go struct field ExternalDocumentation.spec.versions.schema.openAPIV3Schema.properties.properties.externalDocs.url of type string" } },
  { name: "x-kubernetes-embedded-resource a string", text: crd({ props: "                a: {type: object, x-kubernetes-embedded-resource: \"x\"}\n" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.properties.x-kubernetes-embedded-resource of type bool" } },
  { name: "subresources.status a number", text: crd({ cols: "      subresources: {status: 5}\n" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal number into Go struct field CustomResourceSubresources.spec.versions.subresources.status of type v1.CustomResourceSubresourceStatus" } },
  { name: "labelSelectorPath a number", text: crd({ cols: "      subresources: {scale: {specReplicasPath: .spec.r, statusReplicasPath: .status.r, labelSelectorPath: 5}}\n" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal number into Go struct field CustomResourceSubresourceScale.spec.versions.subresources.scale.labelSelectorPath of type string" } },
  { name: "deprecationWarning a number", text: crd({ cols: "      deprecationWarning: 5\n" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal number into Go struct field CustomResourceDefinitionVersion.spec.versions.deprecationWarning of type string" } },
  { name: "a service port a string", text: crd({ conv: "  conversion:\n    strategy: Webhook\n    webhook:\n      conversionReviewVersions: [v1]\n      clientConfig: {service: {name: s, namespace: n, port: \"x\"}}\n" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal bool into Go struct field ServiceReference.spec.conversion.webhook.clientConfig.service.namespace of type string" } },
  { name: "conversion.strategy a number", text: crd({ conv: "  conversion:\n    strategy: 5\n" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal number into Go struct field CustomResourceConversion.spec.conversion.strategy of type v1.ConversionStrategyType" } },
  { name: "selectableFields a string", text: crd({ cols: "      selectableFields: \"x\"\n" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal string into Go struct field CustomResourceDefinitionVersion.spec.versions.selectableFields of type []v1.SelectableField" } },
  { name: "items below additionalProperties below items", text: crd({ props: "                a: {type: array, items: {type: object, additionalProperties: {type: array, items: {type: string, maxLength: \"x\"}}}}\n" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.properties.items.additionalProperties.items.maxLength of type int64" } },
  { name: "nullable a string and a later additionalProperties a string", text: crd({ props: "                a: {type: string, nullable: \"x\"}\n                b: {type: object, additionalProperties: \"y\"}\n" }), server: { status: 400, message: HANDLED + "boolean or JSON schema expected" } },
  { name: "required a string", text: crd({ props: "                a: {type: object, required: \"x\"}\n" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.properties.required of type []string" } },
  { name: "allOf an object", text: crd({ props: "                a: {type: string, allOf: {maxLength: 5}}\n" }), server: { status: 400, message: HANDLED + "json: cannot unmarshal object into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.properties.allOf of type []v1.JSONSchemaProps" } },
];
