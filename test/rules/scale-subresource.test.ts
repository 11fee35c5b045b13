import { ruleFixtureSuite } from '../helpers/rule-tester.js';

ruleFixtureSuite('scale-subresource');
