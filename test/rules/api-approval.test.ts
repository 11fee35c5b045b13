import { ruleFixtureSuite } from '../helpers/rule-tester.js';

ruleFixtureSuite('api-approval');
