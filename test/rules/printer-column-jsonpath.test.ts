import { ruleFixtureSuite } from '../helpers/rule-tester.js';

ruleFixtureSuite('printer-column-jsonpath');
