import { ruleFixtureSuite } from '../helpers/rule-tester.js';

ruleFixtureSuite('list-set-non-scalar');
