import { ruleFixtureSuite } from '../helpers/rule-tester.js';

ruleFixtureSuite('custom-resource');
