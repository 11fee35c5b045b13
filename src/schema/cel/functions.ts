/**
 * The function declarations of the CEL environment the apiserver compiles CRD rules in
 * (apiserver pkg/cel/environment/base.go): cel-go's standard library, its extension libraries
 * (strings, sets, lists, two-variable comprehensions, optionals) and the Kubernetes libraries
 * (urls, regex, lists, quantity, ip, cidr, format, semver), each with the compatibility version
 * from which a new expression may use it. Overload ids are cel-go's and Kubernetes' own (the cost
 * estimator keys on them).
 *
 * One row per overload: `library kind name overloadId argTypes resultType`, kind `G` (global) or
 * `M` (receiver style, the receiver is the first argument type), types written as cel-go prints
 * them with single upper-case letters for type parameters. Rows are in the order the environment
 * declares them (cel-go merges a name's overloads in that order).
 */
import { since } from '../../core/version-gates.js';
import { BOOL, BYTES, DOUBLE, DURATION, DYN, INT, NULL, STRING, TIMESTAMP, TYPE, UINT, listOf, mapOf, opaque, struct, typeOf, typeParam, type CelType } from './types.js';

const ROWS = [
  'std G _?_:_ conditional bool,A,A A',
  'std G _&&_ logical_and bool,bool bool',
  'std G _||_ logical_or bool,bool bool',
  'std G !_ logical_not bool bool',
  'std G @not_strictly_false not_strictly_false bool bool',
  'std G _==_ equals A,A bool',
  'std G _!=_ not_equals A,A bool',
  'std G _+_ add_bytes bytes,bytes bytes',
  'std G _+_ add_double double,double double',
  'std G _+_ add_duration_duration duration,duration duration',
  'std G _+_ add_duration_timestamp duration,timestamp timestamp',
  'std G _+_ add_timestamp_duration timestamp,duration timestamp',
  'std G _+_ add_int64 int,int int',
  'std G _+_ add_list list(A),list(A) list(A)',
  'std G _+_ add_string string,string string',
  'std G _+_ add_uint64 uint,uint uint',
  'std G _/_ divide_double double,double double',
  'std G _/_ divide_int64 int,int int',
  'std G _/_ divide_uint64 uint,uint uint',
  'std G _%_ modulo_int64 int,int int',
  'std G _%_ modulo_uint64 uint,uint uint',
  'std G _*_ multiply_double double,double double',
  'std G _*_ multiply_int64 int,int int',
  'std G _*_ multiply_uint64 uint,uint uint',
  'std G -_ negate_double double double',
  'std G -_ negate_int64 int int',
  'std G _-_ subtract_double double,double double',
  'std G _-_ subtract_duration_duration duration,duration duration',
  'std G _-_ subtract_int64 int,int int',
  'std G _-_ subtract_timestamp_duration timestamp,duration timestamp',
  'std G _-_ subtract_timestamp_timestamp timestamp,timestamp duration',
  'std G _-_ subtract_uint64 uint,uint uint',
  'std G _<_ less_bool bool,bool bool',
  'std G _<_ less_int64 int,int bool',
  'std G _<_ less_int64_double int,double bool',
  'std G _<_ less_int64_uint64 int,uint bool',
  'std G _<_ less_uint64 uint,uint bool',
  'std G _<_ less_uint64_double uint,double bool',
  'std G _<_ less_uint64_int64 uint,int bool',
  'std G _<_ less_double double,double bool',
  'std G _<_ less_double_int64 double,int bool',
  'std G _<_ less_double_uint64 double,uint bool',
  'std G _<_ less_string string,string bool',
  'std G _<_ less_bytes bytes,bytes bool',
  'std G _<_ less_timestamp timestamp,timestamp bool',
  'std G _<_ less_duration duration,duration bool',
  'std G _<=_ less_equals_bool bool,bool bool',
  'std G _<=_ less_equals_int64 int,int bool',
  'std G _<=_ less_equals_int64_double int,double bool',
  'std G _<=_ less_equals_int64_uint64 int,uint bool',
  'std G _<=_ less_equals_uint64 uint,uint bool',
  'std G _<=_ less_equals_uint64_double uint,double bool',
  'std G _<=_ less_equals_uint64_int64 uint,int bool',
  'std G _<=_ less_equals_double double,double bool',
  'std G _<=_ less_equals_double_int64 double,int bool',
  'std G _<=_ less_equals_double_uint64 double,uint bool',
  'std G _<=_ less_equals_string string,string bool',
  'std G _<=_ less_equals_bytes bytes,bytes bool',
  'std G _<=_ less_equals_timestamp timestamp,timestamp bool',
  'std G _<=_ less_equals_duration duration,duration bool',
  'std G _>_ greater_bool bool,bool bool',
  'std G _>_ greater_int64 int,int bool',
  'std G _>_ greater_int64_double int,double bool',
  'std G _>_ greater_int64_uint64 int,uint bool',
  'std G _>_ greater_uint64 uint,uint bool',
  'std G _>_ greater_uint64_double uint,double bool',
  'std G _>_ greater_uint64_int64 uint,int bool',
  'std G _>_ greater_double double,double bool',
  'std G _>_ greater_double_int64 double,int bool',
  'std G _>_ greater_double_uint64 double,uint bool',
  'std G _>_ greater_string string,string bool',
  'std G _>_ greater_bytes bytes,bytes bool',
  'std G _>_ greater_timestamp timestamp,timestamp bool',
  'std G _>_ greater_duration duration,duration bool',
  'std G _>=_ greater_equals_bool bool,bool bool',
  'std G _>=_ greater_equals_int64 int,int bool',
  'std G _>=_ greater_equals_int64_double int,double bool',
  'std G _>=_ greater_equals_int64_uint64 int,uint bool',
  'std G _>=_ greater_equals_uint64 uint,uint bool',
  'std G _>=_ greater_equals_uint64_double uint,double bool',
  'std G _>=_ greater_equals_uint64_int64 uint,int bool',
  'std G _>=_ greater_equals_double double,double bool',
  'std G _>=_ greater_equals_double_int64 double,int bool',
  'std G _>=_ greater_equals_double_uint64 double,uint bool',
  'std G _>=_ greater_equals_string string,string bool',
  'std G _>=_ greater_equals_bytes bytes,bytes bool',
  'std G _>=_ greater_equals_timestamp timestamp,timestamp bool',
  'std G _>=_ greater_equals_duration duration,duration bool',
  'std G _[_] index_list list(A),int A',
  'std G _[_] index_map map(A,B),A B',
  'std G @in in_list A,list(A) bool',
  'std G @in in_map A,map(A,B) bool',
  'std G size size_bytes bytes int',
  'std M size bytes_size bytes int',
  'std G size size_list list(A) int',
  'std M size list_size list(A) int',
  'std G size size_map map(A,B) int',
  'std M size map_size map(A,B) int',
  'std G size size_string string int',
  'std M size string_size string int',
  'std G type type A type(A)',
  'std G bool bool_to_bool bool bool',
  'std G bool string_to_bool string bool',
  'std G bytes bytes_to_bytes bytes bytes',
  'std G bytes string_to_bytes string bytes',
  'std G double double_to_double double double',
  'std G double int64_to_double int double',
  'std G double string_to_double string double',
  'std G double uint64_to_double uint double',
  'std G duration duration_to_duration duration duration',
  'std G duration int64_to_duration int duration',
  'std G duration string_to_duration string duration',
  'std G dyn to_dyn A dyn',
  'std G int int64_to_int64 int int',
  'std G int double_to_int64 double int',
  'std G int duration_to_int64 duration int',
  'std G int string_to_int64 string int',
  'std G int timestamp_to_int64 timestamp int',
  'std G int uint64_to_int64 uint int',
  'std G string string_to_string string string',
  'std G string bool_to_string bool string',
  'std G string bytes_to_string bytes string',
  'std G string double_to_string double string',
  'std G string duration_to_string duration string',
  'std G string int64_to_string int string',
  'std G string timestamp_to_string timestamp string',
  'std G string uint64_to_string uint string',
  'std G timestamp timestamp_to_timestamp timestamp timestamp',
  'std G timestamp int64_to_timestamp int timestamp',
  'std G timestamp string_to_timestamp string timestamp',
  'std G uint uint64_to_uint64 uint uint',
  'std G uint double_to_uint64 double uint',
  'std G uint int64_to_uint64 int uint',
  'std G uint string_to_uint64 string uint',
  'std M contains contains_string string,string bool',
  'std M endsWith ends_with_string string,string bool',
  'std M startsWith starts_with_string string,string bool',
  'std G matches matches string,string bool',
  'std M matches matches_string string,string bool',
  'std M getFullYear timestamp_to_year timestamp int',
  'std M getFullYear timestamp_to_year_with_tz timestamp,string int',
  'std M getMonth timestamp_to_month timestamp int',
  'std M getMonth timestamp_to_month_with_tz timestamp,string int',
  'std M getDayOfYear timestamp_to_day_of_year timestamp int',
  'std M getDayOfYear timestamp_to_day_of_year_with_tz timestamp,string int',
  'std M getDayOfMonth timestamp_to_day_of_month timestamp int',
  'std M getDayOfMonth timestamp_to_day_of_month_with_tz timestamp,string int',
  'std M getDate timestamp_to_day_of_month_1_based timestamp int',
  'std M getDate timestamp_to_day_of_month_1_based_with_tz timestamp,string int',
  'std M getDayOfWeek timestamp_to_day_of_week timestamp int',
  'std M getDayOfWeek timestamp_to_day_of_week_with_tz timestamp,string int',
  'std M getHours timestamp_to_hours timestamp int',
  'std M getHours timestamp_to_hours_with_tz timestamp,string int',
  'std M getHours duration_to_hours duration int',
  'std M getMinutes timestamp_to_minutes timestamp int',
  'std M getMinutes timestamp_to_minutes_with_tz timestamp,string int',
  'std M getMinutes duration_to_minutes duration int',
  'std M getSeconds timestamp_to_seconds timestamp int',
  'std M getSeconds timestamp_to_seconds_tz timestamp,string int',
  'std M getSeconds duration_to_seconds duration int',
  'std M getMilliseconds timestamp_to_milliseconds timestamp int',
  'std M getMilliseconds timestamp_to_milliseconds_with_tz timestamp,string int',
  'std M getMilliseconds duration_to_milliseconds duration int',
  'k8s.urls G url string_to_url string kubernetes.URL',
  'k8s.urls M getScheme url_get_scheme kubernetes.URL string',
  'k8s.urls M getHost url_get_host kubernetes.URL string',
  'k8s.urls M getHostname url_get_hostname kubernetes.URL string',
  'k8s.urls M getPort url_get_port kubernetes.URL string',
  'k8s.urls M getEscapedPath url_get_escaped_path kubernetes.URL string',
  'k8s.urls M getQuery url_get_query kubernetes.URL map(string,list(string))',
  'k8s.urls G isURL is_url_string string bool',
  'k8s.regex M find string_find_string string,string string',
  'k8s.regex M findAll string_find_all_string string,string list(string)',
  'k8s.regex M findAll string_find_all_string_int string,string,int list(string)',
  'k8s.lists.v1 M includes list_includes_dyn_dyn dyn,dyn bool',
  'k8s.lists M indexOf list_a_index_of_int list(A),A int',
  'k8s.lists M lastIndexOf list_a_last_index_of_int list(A),A int',
  'k8s.lists M isSorted list_int_is_sorted_bool list(int) bool',
  'k8s.lists M isSorted list_uint_is_sorted_bool list(uint) bool',
  'k8s.lists M isSorted list_double_is_sorted_bool list(double) bool',
  'k8s.lists M isSorted list_bool_is_sorted_bool list(bool) bool',
  'k8s.lists M isSorted list_duration_is_sorted_bool list(duration) bool',
  'k8s.lists M isSorted list_timestamp_is_sorted_bool list(timestamp) bool',
  'k8s.lists M isSorted list_string_is_sorted_bool list(string) bool',
  'k8s.lists M isSorted list_bytes_is_sorted_bool list(bytes) bool',
  'k8s.lists M sum list_int_sum_int list(int) int',
  'k8s.lists M sum list_uint_sum_uint list(uint) uint',
  'k8s.lists M sum list_double_sum_double list(double) double',
  'k8s.lists M sum list_duration_sum_duration list(duration) duration',
  'k8s.lists M max list_int_max_int list(int) int',
  'k8s.lists M max list_uint_max_uint list(uint) uint',
  'k8s.lists M max list_double_max_double list(double) double',
  'k8s.lists M max list_bool_max_bool list(bool) bool',
  'k8s.lists M max list_duration_max_duration list(duration) duration',
  'k8s.lists M max list_timestamp_max_timestamp list(timestamp) timestamp',
  'k8s.lists M max list_string_max_string list(string) string',
  'k8s.lists M max list_bytes_max_bytes list(bytes) bytes',
  'k8s.lists M min list_int_min_int list(int) int',
  'k8s.lists M min list_uint_min_uint list(uint) uint',
  'k8s.lists M min list_double_min_double list(double) double',
  'k8s.lists M min list_bool_min_bool list(bool) bool',
  'k8s.lists M min list_duration_min_duration list(duration) duration',
  'k8s.lists M min list_timestamp_min_timestamp list(timestamp) timestamp',
  'k8s.lists M min list_string_min_string list(string) string',
  'k8s.lists M min list_bytes_min_bytes list(bytes) bytes',
  'optional G optional.of optional_of V optional_type(V)',
  'optional G optional.ofNonZeroValue optional_ofNonZeroValue V optional_type(V)',
  'optional G optional.none optional_none  optional_type(V)',
  'optional M value optional_value optional_type(V) V',
  'optional M hasValue optional_hasValue optional_type(V) bool',
  'optional M or optional_or_optional optional_type(V),optional_type(V) optional_type(V)',
  'optional M orValue optional_orValue_value optional_type(V),V V',
  'optional G _?._ select_optional_field dyn,string optional_type(V)',
  'optional G _[?_] list_optindex_optional_int list(V),int optional_type(V)',
  'optional G _[?_] optional_list_optindex_optional_int optional_type(list(V)),int optional_type(V)',
  'optional G _[?_] map_optindex_optional_value map(K,V),K optional_type(V)',
  'optional G _[?_] optional_map_optindex_optional_value optional_type(map(K,V)),K optional_type(V)',
  'optional G _[_] optional_list_index_int optional_type(list(V)),int optional_type(V)',
  'optional G _[_] optional_map_index_value optional_type(map(K,V)),K optional_type(V)',
  'optional M last list_last list(V) optional_type(V)',
  'optional M first list_first list(V) optional_type(V)',
  'optional G optional.unwrap optional_unwrap list(optional_type(V)) list(V)',
  'optional M unwrapOpt optional_unwrapOpt list(optional_type(V)) list(V)',
  'k8s.quantity G quantity string_to_quantity string kubernetes.Quantity',
  'k8s.quantity G isQuantity is_quantity_string string bool',
  'k8s.quantity G sign quantity_sign kubernetes.Quantity int',
  'k8s.quantity M isGreaterThan quantity_is_greater_than kubernetes.Quantity,kubernetes.Quantity bool',
  'k8s.quantity M isLessThan quantity_is_less_than kubernetes.Quantity,kubernetes.Quantity bool',
  'k8s.quantity M compareTo quantity_compare_to kubernetes.Quantity,kubernetes.Quantity int',
  'k8s.quantity M asApproximateFloat quantity_get_float kubernetes.Quantity double',
  'k8s.quantity M asInteger quantity_get_int kubernetes.Quantity int',
  'k8s.quantity M isInteger quantity_is_integer kubernetes.Quantity bool',
  'k8s.quantity M add quantity_add kubernetes.Quantity,kubernetes.Quantity kubernetes.Quantity',
  'k8s.quantity M add quantity_add_int kubernetes.Quantity,int kubernetes.Quantity',
  'k8s.quantity M sub quantity_sub kubernetes.Quantity,kubernetes.Quantity kubernetes.Quantity',
  'k8s.quantity M sub quantity_sub_int kubernetes.Quantity,int kubernetes.Quantity',
  'strings M charAt string_char_at_int string,int string',
  'strings M indexOf string_index_of_string string,string int',
  'strings M indexOf string_index_of_string_int string,string,int int',
  'strings M lastIndexOf string_last_index_of_string string,string int',
  'strings M lastIndexOf string_last_index_of_string_int string,string,int int',
  'strings M lowerAscii string_lower_ascii string string',
  'strings M replace string_replace_string_string string,string,string string',
  'strings M replace string_replace_string_string_int string,string,string,int string',
  'strings M split string_split_string string,string list(string)',
  'strings M split string_split_string_int string,string,int list(string)',
  'strings M substring string_substring_int string,int string',
  'strings M substring string_substring_int_int string,int,int string',
  'strings M trim string_trim string string',
  'strings M upperAscii string_upper_ascii string string',
  'strings M format string_format string,list(dyn) string',
  'strings G strings.quote strings_quote string string',
  'strings M join list_join list(string) string',
  'strings M join list_join_string list(string),string string',
  'sets G sets.contains list_sets_contains_list list(T),list(T) bool',
  'sets G sets.equivalent list_sets_equivalent_list list(T),list(T) bool',
  'sets G sets.intersects list_sets_intersects_list list(T),list(T) bool',
  'k8s.ip G ip string_to_ip string net.IP',
  'k8s.ip M family ip_family net.IP int',
  'k8s.ip G ip.isCanonical ip_is_canonical string bool',
  'k8s.ip M isUnspecified ip_is_unspecified net.IP bool',
  'k8s.ip M isLoopback ip_is_loopback net.IP bool',
  'k8s.ip M isLinkLocalMulticast ip_is_link_local_multicast net.IP bool',
  'k8s.ip M isLinkLocalUnicast ip_is_link_local_unicast net.IP bool',
  'k8s.ip M isGlobalUnicast ip_is_global_unicast net.IP bool',
  'k8s.ip G isIP is_ip string bool',
  'k8s.ip G string ip_to_string net.IP string',
  'k8s.cidr G cidr string_to_cidr string net.CIDR',
  'k8s.cidr M containsIP cidr_contains_ip_string net.CIDR,string bool',
  'k8s.cidr M containsIP cidr_contains_ip_ip net.CIDR,net.IP bool',
  'k8s.cidr M containsCIDR cidr_contains_cidr_string net.CIDR,string bool',
  'k8s.cidr M containsCIDR cidr_contains_cidr net.CIDR,net.CIDR bool',
  'k8s.cidr M ip cidr_ip net.CIDR net.IP',
  'k8s.cidr M prefixLength cidr_prefix_length net.CIDR int',
  'k8s.cidr M masked cidr_masked net.CIDR net.CIDR',
  'k8s.cidr G isCIDR is_cidr string bool',
  'k8s.cidr G string cidr_to_string net.CIDR string',
  'k8s.format M validate format-validate kubernetes.NamedFormat,string optional_type(list(string))',
  'k8s.format G format.named format-named string optional_type(kubernetes.NamedFormat)',
  'k8s.format G format.dns1123Label format.dns1123Label  kubernetes.NamedFormat',
  'k8s.format G format.dns1123Subdomain format.dns1123Subdomain  kubernetes.NamedFormat',
  'k8s.format G format.dns1035Label format.dns1035Label  kubernetes.NamedFormat',
  'k8s.format G format.qualifiedName format.qualifiedName  kubernetes.NamedFormat',
  'k8s.format G format.dns1123LabelPrefix format.dns1123LabelPrefix  kubernetes.NamedFormat',
  'k8s.format G format.dns1123SubdomainPrefix format.dns1123SubdomainPrefix  kubernetes.NamedFormat',
  'k8s.format G format.dns1035LabelPrefix format.dns1035LabelPrefix  kubernetes.NamedFormat',
  'k8s.format G format.labelValue format.labelValue  kubernetes.NamedFormat',
  'k8s.format G format.uri format.uri  kubernetes.NamedFormat',
  'k8s.format G format.uuid format.uuid  kubernetes.NamedFormat',
  'k8s.format G format.byte format.byte  kubernetes.NamedFormat',
  'k8s.format G format.date format.date  kubernetes.NamedFormat',
  'k8s.format G format.datetime format.datetime  kubernetes.NamedFormat',
  'twovar G cel.@mapInsert @mapInsert_map_key_value map(K,V),K,V map(K,V)',
  'twovar G cel.@mapInsert @mapInsert_map_map map(K,V),map(K,V) map(K,V)',
  'k8s.semver G semver string_to_semver string kubernetes.Semver',
  'k8s.semver G isSemver is_semver_string string bool',
  'k8s.semver M isGreaterThan semver_is_greater_than kubernetes.Semver,kubernetes.Semver bool',
  'k8s.semver M isLessThan semver_is_less_than kubernetes.Semver,kubernetes.Semver bool',
  'k8s.semver M compareTo semver_compare_to kubernetes.Semver,kubernetes.Semver int',
  'k8s.semver M major semver_major kubernetes.Semver int',
  'k8s.semver M minor semver_minor kubernetes.Semver int',
  'k8s.semver M patch semver_patch kubernetes.Semver int',
  'k8s.semver G semver string_bool_to_semver string,bool kubernetes.Semver',
  'k8s.semver G isSemver is_semver_string_bool string,bool bool',
  'lists M slice list_slice list(T),int,int list(T)',
  'lists M flatten list_flatten list(list(T)) list(T)',
  'lists M flatten list_flatten_int list(dyn),int list(dyn)',
  'lists G lists.range lists_range int list(int)',
  'lists M reverse list_reverse list(T) list(T)',
  'lists M distinct list_distinct list(T) list(T)',
  'lists M sort list_int_sort list(int) list(int)',
  'lists M sort list_uint_sort list(uint) list(uint)',
  'lists M sort list_double_sort list(double) list(double)',
  'lists M sort list_bool_sort list(bool) list(bool)',
  'lists M sort list_google.protobuf.Duration_sort list(duration) list(duration)',
  'lists M sort list_google.protobuf.Timestamp_sort list(timestamp) list(timestamp)',
  'lists M sort list_string_sort list(string) list(string)',
  'lists M sort list_bytes_sort list(bytes) list(bytes)',
  'lists M @sortByAssociatedKeys list_int_sortByAssociatedKeys list(T),list(int) list(T)',
  'lists M @sortByAssociatedKeys list_uint_sortByAssociatedKeys list(T),list(uint) list(T)',
  'lists M @sortByAssociatedKeys list_double_sortByAssociatedKeys list(T),list(double) list(T)',
  'lists M @sortByAssociatedKeys list_bool_sortByAssociatedKeys list(T),list(bool) list(T)',
  'lists M @sortByAssociatedKeys list_google.protobuf.Duration_sortByAssociatedKeys list(T),list(duration) list(T)',
  'lists M @sortByAssociatedKeys list_google.protobuf.Timestamp_sortByAssociatedKeys list(T),list(timestamp) list(T)',
  'lists M @sortByAssociatedKeys list_string_sortByAssociatedKeys list(T),list(string) list(T)',
  'lists M @sortByAssociatedKeys list_bytes_sortByAssociatedKeys list(T),list(bytes) list(T)',
];

/** The libraries of the environment and the compatibility version (minor of 1.x) where each becomes available. */
export const LIBRARY_SINCE: Readonly<Record<string, number>> = {
  std: 0,
  'k8s.urls': 0,
  'k8s.regex': 0,
  'k8s.lists': 0,
  /** Kubernetes lists library v1 (`includes`): introduced 1.37, so only in a 1.37 server's stored-expressions environment. */
  'k8s.lists.v1': since('cel.lists-v1'),
  optional: since('cel.optionals'),
  'k8s.quantity': since('cel.optionals'),
  strings: 0,
  sets: since('cel.strings-v2'),
  'k8s.ip': since('cel.ip-cidr'),
  'k8s.cidr': since('cel.ip-cidr'),
  'k8s.format': since('cel.format-and-escapes'),
  twovar: since('cel.two-var'),
  'k8s.semver': since('cel.semver'),
  lists: since('cel.ext-lists'),
};

/** Strings extension overloads that need version 1 or 2 of the library (the environment moves from v0 to v2 at 1.29). */
const STRINGS_V2_ONLY = new Set(['string_format', 'strings_quote', 'list_join', 'list_join_string']);
/** Cross-type numeric comparisons (cel.CrossTypeNumericComparisons, from 1.28). */
const CROSS_NUMERIC = /^(less|less_equals|greater|greater_equals)_(int64_double|int64_uint64|uint64_double|uint64_int64|double_int64|double_uint64)$/;

export interface OverloadDecl {
  readonly id: string;
  readonly member: boolean;
  /** Argument types, the receiver first for member overloads. */
  readonly args: readonly CelType[];
  readonly result: CelType;
  /** Names of the type parameters the signature uses. */
  readonly typeParams: readonly string[];
}

export interface FunctionDecl {
  readonly name: string;
  readonly overloads: readonly OverloadDecl[];
}

function parseType(s: string, params: Set<string>): CelType {
  let i = 0;
  const one = (): CelType => {
    let j = i;
    while (j < s.length && s[j] !== '(' && s[j] !== ')' && s[j] !== ',') j++;
    const name = s.slice(i, j);
    i = j;
    const args: CelType[] = [];
    if (s[i] === '(') {
      i++;
      for (;;) {
        args.push(one());
        if (s[i] === ',') {
          i++;
          continue;
        }
        i++; // ')'
        break;
      }
    }
    switch (name) {
      case 'bool':
        return BOOL;
      case 'bytes':
        return BYTES;
      case 'double':
        return DOUBLE;
      case 'int':
        return INT;
      case 'uint':
        return UINT;
      case 'string':
        return STRING;
      case 'null':
        return NULL;
      case 'dyn':
        return DYN;
      case 'timestamp':
        return TIMESTAMP;
      case 'duration':
        return DURATION;
      case 'list':
        return listOf(args[0]!);
      case 'map':
        return mapOf(args[0]!, args[1]!);
      case 'type':
        return args.length ? typeOf(args[0]!) : TYPE;
      case 'optional_type':
        return opaque('optional_type', args[0]!);
      case 'net.IP':
      case 'net.CIDR':
        return opaque(name);
      default:
        if (/^[A-Z]$/.test(name)) {
          params.add(name);
          return typeParam(name);
        }
        return struct(name);
    }
  };
  return one();
}

/** Each name's rows, split into fields but with their types unparsed: what overloadIdsFor needs. */
let rowTable: Map<string, (readonly [lib: string, kind: string, id: string, args: string, result: string])[]> | undefined;

function rowsByName(): Map<string, (readonly [lib: string, kind: string, id: string, args: string, result: string])[]> {
  if (rowTable) return rowTable;
  rowTable = new Map();
  for (const row of ROWS) {
    const [lib, kind, name, id, args, result] = row.split(' ') as [string, string, string, string, string, string];
    const list = rowTable.get(name);
    if (list) list.push([lib, kind, id, args, result]);
    else rowTable.set(name, [[lib, kind, id, args, result]]);
  }
  return rowTable;
}

const declTable = new Map<string, { lib: string; decl: OverloadDecl }[]>();

/**
 * The overloads declared under `name`, their types parsed on first use: a rule calls a few of the
 * environment's ~150 names, and parsing every row's types was most of a first compile.
 */
function declsOf(name: string): { lib: string; decl: OverloadDecl }[] | undefined {
  let list = declTable.get(name);
  if (list) return list;
  const rows = rowsByName().get(name);
  if (!rows) return undefined;
  list = rows.map(([lib, kind, id, args, result]) => {
    const params = new Set<string>();
    const argTypes = args === '' ? [] : splitTop(args).map((a) => parseType(a, params));
    const res = parseType(result, params);
    return { lib, decl: { id, member: kind === 'M', args: argTypes, result: res, typeParams: [...params] } };
  });
  declTable.set(name, list);
  return list;
}

function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const c of s) {
    if (c === '(') depth++;
    if (c === ')') depth--;
    if (c === ',' && depth === 0) {
      out.push(cur);
      cur = '';
      continue;
    }
    cur += c;
  }
  out.push(cur);
  return out;
}

/** Standard overloads cel-go dropped, by the first Kubernetes minor whose cel-go lacks them. */
const STD_REMOVED: Readonly<Record<string, number>> = {
  // cel-go 0.29 (Kubernetes 1.37): duration(int) always failed at runtime; no longer declared
  int64_to_duration: since('cel.go-0.29'),
};

/** Overloads a library of cel-go gained, by the first Kubernetes minor whose cel-go has them (optional types version 2). */
const SERVER_ADDED: Readonly<Record<string, number>> = {
  list_last: since('cel.optional-lists'),
  list_first: since('cel.optional-lists'),
  optional_unwrap: since('cel.optional-lists'),
  optional_unwrapOpt: since('cel.optional-lists'),
};

/**
 * Whether an overload of `lib` is declared in an environment of compatibility version 1.`compat`
 * on a server of minor 1.`server` (its cel-go).
 */
function available(lib: string, id: string, compat: number, server: number): boolean {
  if (compat < (LIBRARY_SINCE[lib] ?? Infinity)) return false;
  if (server >= (STD_REMOVED[id] ?? Infinity)) return false;
  if (server < (SERVER_ADDED[id] ?? 0)) return false;
  if (lib === 'strings' && STRINGS_V2_ONLY.has(id) && compat < since('cel.strings-v2')) return false;
  if (lib === 'std' && compat < since('cel.optionals') && CROSS_NUMERIC.test(id)) return false;
  return true;
}

const cache = new Map<string, ReadonlyMap<string, FunctionDecl>>();
const idCache = new Map<string, string>();

/**
 * The ids of the overloads functionsFor(compat, server) declares under `name`, comma-separated
 * ('' when none): what a checker can resolve a call of `name` to, without building the whole table.
 */
export function overloadIdsFor(name: string, compat: number, server: number): string {
  const key = `${compat}/${server}/${name}`;
  let ids = idCache.get(key);
  if (ids === undefined) {
    ids = (rowsByName().get(name) ?? [])
      .filter(([lib, , id]) => available(lib, id, compat, server))
      .map(([, , id]) => id)
      .join(',');
    idCache.set(key, ids);
  }
  return ids;
}

/**
 * The functions declared in an environment of compatibility version 1.`compat` (Infinity: every
 * library) on a server of minor 1.`server` (Infinity: the newest cel-go crdx knows).
 */
export function functionsFor(compat: number, server: number): ReadonlyMap<string, FunctionDecl> {
  const key = `${compat}/${server}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const out = new Map<string, FunctionDecl>();
  for (const name of rowsByName().keys()) {
    const decl = declOf(name, compat, server);
    if (decl) out.set(name, decl);
  }
  cache.set(key, out);
  return out;
}

function declOf(name: string, compat: number, server: number): FunctionDecl | undefined {
  const overloads = (declsOf(name) ?? []).filter((o) => available(o.lib, o.decl.id, compat, server)).map((o) => o.decl);
  return overloads.length > 0 ? { name, overloads } : undefined;
}

const lookups = new Map<string, { get(name: string): FunctionDecl | undefined }>();

/**
 * functionsFor(compat, server).get as a lookup that builds a name's declaration when first asked
 * for it (the checker's only use of the table), not the whole table: the same declarations.
 */
export function functionLookup(compat: number, server: number): { get(name: string): FunctionDecl | undefined } {
  const key = `${compat}/${server}`;
  let hit = lookups.get(key);
  if (hit) return hit;
  const full = cache.get(key);
  if (full) hit = full;
  else {
    const byName = new Map<string, FunctionDecl | undefined>();
    hit = {
      get(name) {
        if (byName.has(name)) return byName.get(name);
        const d = declOf(name, compat, server);
        byName.set(name, d);
        return d;
      },
    };
  }
  lookups.set(key, hit);
  return hit;
}
