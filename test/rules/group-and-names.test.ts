import { ruleFixtureSuite } from '../helpers/rule-tester.js';

ruleFixtureSuite('group-and-names');
