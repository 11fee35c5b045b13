import { ruleFixtureSuite } from '../helpers/rule-tester.js';

ruleFixtureSuite('deprecation-warning');
