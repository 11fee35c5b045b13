import { ruleFixtureSuite } from '../helpers/rule-tester.js';

ruleFixtureSuite('status-property');
