import { ruleFixtureSuite } from '../helpers/rule-tester.js';

ruleFixtureSuite('naming-conflicts');
