import { apiApproval } from './api-approval.js';
import { celCompile } from './cel-compile.js';
import { celCompilePanic } from './cel-compile-panic.js';
import { celCost } from './cel-cost.js';
import { celCostExplanation } from './cel-cost-explanation.js';
import { celNotEvaluated } from './cel-not-evaluated.js';
import { celRules } from './cel-rules.js';
import { clientSideApplySize } from './client-side-apply-size.js';
import { conversion } from './conversion.js';
import { crdDecode } from './crd-decode.js';
import { crdMetadata } from './crd-metadata.js';
import { crdName } from './crd-name.js';
import { crdWarnings } from './crd-warnings.js';
import { customResource } from './custom-resource.js';
import { customResourceWarnings } from './custom-resource-warnings.js';
import { deprecationWarning } from './deprecation-warning.js';
import { groupAndNames } from './group-and-names.js';
import { listMapTypes } from './list-map-types.js';
import { listSetNonScalar } from './list-set-non-scalar.js';
import { namingConflictsRule } from './naming-conflicts.js';
import { preserveUnknownFields } from './preserve-unknown-fields.js';
import { printerColumnJsonpath } from './printer-column-jsonpath.js';
import { printerColumns } from './printer-columns.js';
import { scalePaths } from './scale-paths.js';
import { scaleSubresource } from './scale-subresource.js';
import { schemaDefaults } from './schema-defaults.js';
import { schemaDroppedFields } from './schema-dropped-fields.js';
import { schemaOpenapiSubset } from './schema-openapi-subset.js';
import { schemaPattern } from './schema-pattern.js';
import { schemaRequired } from './schema-required.js';
import { schemaRootStatus } from './schema-root-status.js';
import { scope } from './scope.js';
import { selectableFields } from './selectable-fields.js';
import { statusProperty } from './status-property.js';
import { storedObjects } from './stored-objects.js';
import { structuralSchema } from './structural-schema.js';
import { unrecognizedFormat } from './unrecognized-format.js';
import { upgradeSafety } from './upgrade-safety.js';
import { v1beta1Crd } from './v1beta1-crd.js';
import { versions } from './versions.js';
import type { Rule } from './types.js';

/** Every rule, sorted by id. */
export const rules: readonly Rule[] = [
  apiApproval,
  celCompile,
  celCompilePanic,
  celCost,
  celCostExplanation,
  celNotEvaluated,
  celRules,
  clientSideApplySize,
  conversion,
  crdDecode,
  crdMetadata,
  crdName,
  crdWarnings,
  customResource,
  customResourceWarnings,
  deprecationWarning,
  groupAndNames,
  listMapTypes,
  listSetNonScalar,
  namingConflictsRule,
  preserveUnknownFields,
  printerColumnJsonpath,
  printerColumns,
  scalePaths,
  scaleSubresource,
  schemaDefaults,
  schemaDroppedFields,
  schemaOpenapiSubset,
  schemaPattern,
  schemaRequired,
  schemaRootStatus,
  scope,
  selectableFields,
  statusProperty,
  storedObjects,
  structuralSchema,
  unrecognizedFormat,
  upgradeSafety,
  v1beta1Crd,
  versions,
] as Rule[];
